import {
  EMAIL_TEMPLATE_CATEGORIES,
  EMAIL_TEMPLATE_THEMES,
  TEMPLATE_ON_MISSING_LANGUAGE,
} from '@switchboard/contracts';
import type {
  EmailTemplateCategory,
  EmailTemplateLanguageContent,
  ErrorDetail,
  TemplateOnMissingLanguage,
} from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PageQuery } from '../../pipeline/http/list-query.dto';

const SLUG_LENGTH = 63;
const NAME_LENGTH = 255;
const DESCRIPTION_LENGTH = 1_000;
const SUBJECT_LENGTH = 998;
const PREVIEW_TEXT_LENGTH = 1_000;
const BODY_LENGTH = 1_000_000;
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,4}$/;
const CONTENT_FIELDS: Record<keyof EmailTemplateLanguageContent, number> = {
  subject: SUBJECT_LENGTH,
  preview_text: PREVIEW_TEXT_LENGTH,
  html: BODY_LENGTH,
  text: BODY_LENGTH,
};

const LanguageTag = (field: string) =>
  Matches(LANGUAGE_TAG, { message: `${field} must be a BCP-47 language tag such as en or pt-BR` });

export class ListEmailTemplatesQuery extends PageQuery {
  @IsOptional() @IsIn(['system', 'workspace']) scope?: 'system' | 'workspace';
  @IsOptional() @IsIn(EMAIL_TEMPLATE_CATEGORIES) category?: EmailTemplateCategory;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(32) source?: string;
  @IsOptional() @IsIn(EMAIL_TEMPLATE_THEMES) theme?: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(200) q?: string;
}

export class TemplateLanguageContentDto {
  @IsOptional() @IsString() @MaxLength(SUBJECT_LENGTH) subject?: string;
  @IsOptional() @IsString() @MaxLength(PREVIEW_TEXT_LENGTH) preview_text?: string;
  @IsOptional() @IsString() @MaxLength(BODY_LENGTH) html?: string;
  @IsOptional() @IsString() @MaxLength(BODY_LENGTH) text?: string;
}

export class CreateEmailTemplateDto {
  @IsString() @MinLength(1) @MaxLength(SLUG_LENGTH) slug: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(NAME_LENGTH) name?: string;
  @IsOptional() @IsString() @MaxLength(DESCRIPTION_LENGTH) description?: string;
  @IsIn(EMAIL_TEMPLATE_CATEGORIES) category: EmailTemplateCategory;
  @IsIn(['html'], { message: 'source must be html (the one format the API authors)' })
  source: 'html';
  /** Checked by `checkLanguageMap`: a map whose keys are language tags. */
  @IsOptional() @IsObject() languages?: Record<string, EmailTemplateLanguageContent>;
  @IsOptional() @IsString() @LanguageTag('default_language') default_language?: string;
  @IsOptional() @IsIn(TEMPLATE_ON_MISSING_LANGUAGE) on_missing_language?: TemplateOnMissingLanguage;
  @IsOptional() @IsBoolean() language_source_required?: boolean;
}

export class UpdateEmailTemplateDto {
  @IsInt() @Min(0) revision: number;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(NAME_LENGTH) name?: string;
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(DESCRIPTION_LENGTH)
  description?: string | null;
  @IsOptional() @IsString() @LanguageTag('default_language') default_language?: string;
  @IsOptional() @IsIn(TEMPLATE_ON_MISSING_LANGUAGE) on_missing_language?: TemplateOnMissingLanguage;
  @IsOptional() @IsBoolean() language_source_required?: boolean;
}

export class DuplicateEmailTemplateDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(SLUG_LENGTH) slug?: string;
}

export class PreviewEmailTemplateDto {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TemplateLanguageContentDto)
  content?: TemplateLanguageContentDto;
  @IsOptional() @IsObject() parameters?: Record<string, unknown>;
  @IsOptional()
  @IsString()
  @Matches(/^con_[0-9a-z]{1,64}$/, { message: 'contact must be a contact id (con_…)' })
  contact?: string;
  @IsOptional() @IsString() @LanguageTag('language') language?: string;
  @IsOptional()
  @IsString()
  @Matches(/^emv_[0-9a-z]{1,64}$/, { message: 'version must be a template version id (emv_…)' })
  version?: string;
}

export class SubmitEmailTemplateDto {
  @IsOptional() @IsBoolean() validate_only?: boolean;
  @IsOptional() @IsInt() @Min(0) expected_revision?: number;
  @IsOptional() @IsArray() @IsString({ each: true }) languages?: string[];
}

export class RollbackEmailTemplateDto {
  @IsInt() @Min(0) revision: number;
}

export class PutEmailTemplateLanguageDto {
  @IsString() @MaxLength(SUBJECT_LENGTH) subject: string;
  @IsOptional() @IsString() @MaxLength(PREVIEW_TEXT_LENGTH) preview_text?: string;
  @IsOptional() @IsString() @MaxLength(BODY_LENGTH) html?: string;
  @IsOptional() @IsString() @MaxLength(BODY_LENGTH) text?: string;
  @IsOptional() @IsInt() @Min(0) revision?: number;
}

export class PatchEmailTemplateLanguageDto {
  @IsOptional() @IsString() @MaxLength(SUBJECT_LENGTH) subject?: string;
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(PREVIEW_TEXT_LENGTH)
  preview_text?: string | null;
  @IsOptional() @IsString() @MaxLength(BODY_LENGTH) html?: string;
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(BODY_LENGTH)
  text?: string | null;
  @IsOptional() @IsInt() @Min(0) revision?: number;
}

/**
 * A create's `languages`: each key a language tag, each value an object of the four content
 * fields, strings within their lengths. 422 naming every problem (`languages.fr.html`).
 */
export function checkLanguageMap(languages: Record<string, unknown> | undefined): void {
  if (!languages) return;
  const details: ErrorDetail[] = [];
  for (const [tag, content] of Object.entries(languages)) {
    const param = `languages.${tag}`;
    if (!LANGUAGE_TAG.test(tag) || tag.length > 35) {
      details.push({ param, message: 'keys must be BCP-47 language tags such as en or pt-BR' });
      continue;
    }
    if (typeof content !== 'object' || content === null || Array.isArray(content)) {
      details.push({ param, message: 'must be an object with subject, preview_text, html, text' });
      continue;
    }
    for (const [field, value] of Object.entries(content)) {
      const limit = CONTENT_FIELDS[field as keyof EmailTemplateLanguageContent];
      if (limit === undefined)
        details.push({ param: `${param}.${field}`, message: 'is not a known field' });
      else if (typeof value !== 'string')
        details.push({ param: `${param}.${field}`, message: 'must be a string' });
      else if (value.length > limit)
        details.push({
          param: `${param}.${field}`,
          message: `must be at most ${limit} characters`,
        });
    }
  }
  if (details.length) throw AppError.validation(details);
}
