import { CONTACT_LIMITS, CONTACT_MATCH_KEYS } from '@switchboard/contracts';
import type { ContactMatchKey } from '@switchboard/contracts';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { RepeatedQuery } from '../../pipeline/http/list-filters';
import { ManagementPageQuery, PageQuery } from '../../pipeline/http/list-query.dto';

/*
 * Shapes only: which fields exist and their JSON types. The workspace-objects service applies
 * the rules (normalization, uniqueness, lengths, `data` against the declared properties), the
 * same for one contact and for each entry of a batch, where a bad entry fails alone.
 */

export class CreateContactDto {
  @IsOptional() @IsString() email?: string;
  @IsOptional() @IsString() phone_number?: string;
  @IsOptional() @IsString() first_name?: string;
  @IsOptional() @IsString() last_name?: string;
  @IsOptional() @IsString() external_id?: string;
  @IsOptional() @IsObject() data?: Record<string, unknown>;
}

/** Omitted fields are unchanged; null clears (an identifier only while another remains). */
export class UpdateContactDto {
  @IsOptional() @IsString() email?: string | null;
  @IsOptional() @IsString() phone_number?: string | null;
  @IsOptional() @IsString() first_name?: string | null;
  @IsOptional() @IsString() last_name?: string | null;
  @IsOptional() @IsString() external_id?: string | null;
  @IsOptional() @IsObject() data?: Record<string, unknown>;
}

export class ContactBatchDto {
  /** Each entry is checked by the service, so one bad entry fails alone. */
  @IsArray()
  @ArrayMinSize(1, { message: 'contacts must hold at least one entry' })
  @ArrayMaxSize(CONTACT_LIMITS.batchEntries, {
    message: `contacts holds at most ${CONTACT_LIMITS.batchEntries} entries`,
  })
  contacts: Array<Record<string, unknown>>;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(CONTACT_LIMITS.batchAudiences, {
    message: `audience_ids names at most ${CONTACT_LIMITS.batchAudiences} audiences`,
  })
  @IsString({ each: true })
  audience_ids?: string[];

  @IsOptional()
  @IsIn(CONTACT_MATCH_KEYS, { message: `match_on must be one of ${CONTACT_MATCH_KEYS.join(', ')}` })
  match_on?: ContactMatchKey;

  @IsOptional()
  @IsIn(['merge', 'replace'], { message: 'data_mode must be merge or replace' })
  data_mode?: 'merge' | 'replace';
}

/** The SDK: an empty filter value is a validation error, and spaces alone are empty once trimmed. */
const NOT_BLANK = /\S/;

export class ListContactsQuery extends ManagementPageQuery {
  @IsOptional()
  @IsString()
  @Matches(NOT_BLANK, { message: 'email must not be empty' })
  @MaxLength(CONTACT_LIMITS.emailLength)
  email?: string;

  @IsOptional()
  @RepeatedQuery()
  @IsArray()
  @ArrayMaxSize(CONTACT_LIMITS.phoneFilterValues, {
    message: `phone_number takes at most ${CONTACT_LIMITS.phoneFilterValues} values`,
  })
  @IsString({ each: true })
  @Matches(NOT_BLANK, { each: true, message: 'phone_number must not be empty' })
  @MaxLength(CONTACT_LIMITS.phoneInputLength, { each: true })
  phone_number?: string[];

  @IsOptional()
  @IsString()
  @Matches(NOT_BLANK, { message: 'external_id must not be empty' })
  @MaxLength(CONTACT_LIMITS.externalIdLength)
  external_id?: string;

  @IsOptional() @IsString() @MinLength(1) @MaxLength(200) q?: string;

  @IsOptional()
  @IsIn(['email', 'phone_number'], { message: 'identifier must be email or phone_number' })
  identifier?: 'email' | 'phone_number';
}

export class CreateContactPropertyDto {
  @IsString() @MinLength(1) @MaxLength(CONTACT_LIMITS.propertyKeyLength) key: string;
  @IsString() type: string;
  @IsOptional() fallback_value?: unknown;
}

export class UpdateContactPropertyDto {
  /** null removes the fallback. */
  @IsOptional() fallback_value?: unknown;
}

export class ListAudiencesQuery extends PageQuery {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(200) q?: string;
}

export class CreateAudienceDto {
  @IsString() @MaxLength(CONTACT_LIMITS.audienceNameLength) name: string;
  @IsOptional()
  @IsString()
  @MaxLength(CONTACT_LIMITS.audienceDescriptionLength)
  description?: string;
  @IsOptional() @IsIn(['static'], { message: 'type must be static' }) type?: 'static';
}

export class UpdateAudienceDto {
  @IsOptional() @IsString() @MaxLength(CONTACT_LIMITS.audienceNameLength) name?: string;
  @IsOptional()
  @IsString()
  @MaxLength(CONTACT_LIMITS.audienceDescriptionLength)
  description?: string | null;
}

export class AudienceContactsDto {
  @IsArray()
  @ArrayMinSize(1, { message: 'contact_ids must name at least one contact' })
  @ArrayMaxSize(CONTACT_LIMITS.membersPerCall, {
    message: `contact_ids names at most ${CONTACT_LIMITS.membersPerCall} contacts`,
  })
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  contact_ids: string[];
}
