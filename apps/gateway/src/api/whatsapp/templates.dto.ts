import { WHATSAPP_TEMPLATE_SCOPES, WHATSAPP_TEMPLATE_STATUSES } from '@switchboard/contracts';
import type { TemplateStatusFilter, TemplateScopeFilter } from '@switchboard/contracts';
import {
  ArrayMaxSize,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { PageQuery } from '../../pipeline/http/list-query.dto';
import { RepeatedQuery } from '../../pipeline/http/list-filters';

/** `GET /v1/whatsapp/templates` (the SDK's `WhatsappTemplatesListQuery`), newest first. */
export class ListWhatsAppTemplatesQuery extends PageQuery {
  /** Meta's WhatsApp Business Account id. */
  @IsOptional()
  @IsString()
  @Matches(/^[0-9]{1,32}$/, { message: 'waba must be a WhatsApp Business Account id (digits)' })
  waba?: string;
  @IsOptional()
  @RepeatedQuery()
  @IsIn(WHATSAPP_TEMPLATE_STATUSES, {
    each: true,
    message: `status must be one of ${WHATSAPP_TEMPLATE_STATUSES.join(', ')}`,
  })
  @ArrayMaxSize(5)
  status?: TemplateStatusFilter[];
  @IsOptional()
  @IsIn(WHATSAPP_TEMPLATE_SCOPES, {
    message: `scope must be one of ${WHATSAPP_TEMPLATE_SCOPES.join(', ')}`,
  })
  scope?: TemplateScopeFilter;
  /** Open at Meta (`authentication`, `utility`, `marketing` today): any lowercase word. */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z_]{1,32}$/, { message: 'category must be a category such as utility' })
  category?: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(200) q?: string;
}

/** `GET /v1/whatsapp/templates/{template_ref}/versions`, newest first. */
export class ListWhatsAppTemplateVersionsQuery extends PageQuery {}
