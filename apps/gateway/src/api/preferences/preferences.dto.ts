import { PREFERENCE_COVERAGES, PREFERENCE_STATUSES } from '@switchboard/contracts';
import type { PreferenceCoverage, PreferenceStatus } from '@switchboard/contracts';
import {
  IsIn,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { PageQuery } from '../../pipeline/http/list-query.dto';

/** Open like the SDK's channel enum, but a channel name: lowercase letters, digits, `_`. */
const CHANNEL = /^[a-z][a-z0-9_]{0,31}$/;
/** PostgreSQL text holds no NUL; the other control characters have no place in a key. */
const PRINTABLE = /^[^\u0000-\u001f\u007f]*$/;
const NO_NUL = /^[^\u0000]*$/;

export class CreatePreferenceDto {
  @IsString()
  @Matches(CHANNEL, { message: 'channel must be a channel name such as email, sms or whatsapp' })
  channel: string;
  @IsString()
  @MinLength(1)
  @MaxLength(320)
  @Matches(PRINTABLE, { message: 'handle may not contain control characters' })
  handle: string;
  @IsIn(PREFERENCE_STATUSES, { message: `status must be one of ${PREFERENCE_STATUSES.join(', ')}` })
  status: PreferenceStatus;
  @IsOptional()
  @IsIn(PREFERENCE_COVERAGES, {
    message: `coverage must be one of ${PREFERENCE_COVERAGES.join(', ')}`,
  })
  coverage?: PreferenceCoverage;
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  @Matches(PRINTABLE, { message: 'sender_scope may not contain control characters' })
  sender_scope?: string;
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  @Matches(NO_NUL, { message: 'source may not contain NUL characters' })
  source?: string;
  @IsOptional()
  @IsISO8601(
    { strict: true, strictSeparator: true },
    { message: 'consented_at must be an RFC 3339 date-time' },
  )
  consented_at?: string;
}

/** Newest first with keyset cursors; `handle` only with `channel`. */
export class ListPreferencesQuery extends PageQuery {
  @IsOptional()
  @IsString()
  @Matches(CHANNEL, { message: 'channel must be a channel name such as email, sms or whatsapp' })
  channel?: string;
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(320)
  @Matches(PRINTABLE, { message: 'handle may not contain control characters' })
  handle?: string;
}

export class ContactPreferencesQuery extends PageQuery {}
