import { SMS_MESSAGE_CATEGORIES, SMS_TEMPLATE_SCOPES } from '@switchboard/contracts';
import type { SmsMessageCategory, SmsTemplateScope } from '@switchboard/contracts';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** The catalog's filters; the list is returned in full (not paginated). */
export class ListSmsTemplatesQuery {
  @IsOptional()
  @IsIn(SMS_TEMPLATE_SCOPES, { message: `scope must be one of ${SMS_TEMPLATE_SCOPES.join(', ')}` })
  scope?: SmsTemplateScope;

  @IsOptional()
  @IsIn(SMS_MESSAGE_CATEGORIES, {
    message: `category must be one of ${SMS_MESSAGE_CATEGORIES.join(', ')}`,
  })
  category?: SmsMessageCategory;

  /** Exact match on a template's `available_languages`. */
  @IsOptional()
  @IsString()
  @MaxLength(35)
  @Matches(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, {
    message: 'language must be a BCP-47 tag, such as en or pt-BR',
  })
  language?: string;
}
