import {
  VOICE_CALL_DIRECTIONS,
  VOICE_CALL_REJECTION_REASONS,
  VOICE_CALL_STATUSES,
} from '@switchboard/contracts';
import type {
  VoiceCallDirection,
  VoiceCallRejectionReason,
  VoiceCallStatus,
} from '@switchboard/contracts';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { RepeatedQuery, TAG_FILTER } from '../../pipeline/http/list-filters';
import { PageQuery } from '../../pipeline/http/list-query.dto';

/** `status=ringing,in_progress` (the SDK's form) or repeated, as one array. */
const CommaList = () =>
  Transform(({ value }: { value: unknown }) =>
    (Array.isArray(value) ? value : [value]).flatMap((item: unknown) =>
      typeof item === 'string' ? item.split(',').filter(Boolean) : [item],
    ),
  );

/** Calls by start time, latest first; without `status`, ended calls only. */
export class ListVoiceCallsQuery extends PageQuery {
  @IsOptional()
  @IsIn(VOICE_CALL_DIRECTIONS, { message: 'direction must be inbound or outbound' })
  direction?: VoiceCallDirection;
  @IsOptional()
  @CommaList()
  @IsIn(VOICE_CALL_STATUSES, {
    each: true,
    message: `status must be among ${VOICE_CALL_STATUSES.join(', ')}`,
  })
  status?: VoiceCallStatus[];
  @IsOptional() @IsString() @MaxLength(128) session_id?: string;
  @IsOptional() @IsString() @MaxLength(128) sip_trunk_id?: string;
  @IsOptional() @IsString() @MaxLength(32) from?: string;
  @IsOptional() @IsString() @MaxLength(32) to?: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(32) number?: string;
  @IsOptional()
  @RepeatedQuery()
  @IsString({ each: true })
  @Matches(TAG_FILTER, { each: true, message: 'tag must be name or name:value' })
  @ArrayMaxSize(10)
  tag?: string[];
  @IsOptional() @IsString() @MaxLength(40) started_after?: string;
  @IsOptional() @IsString() @MaxLength(40) started_before?: string;
}

class VoiceActorDto {
  @IsString() @MinLength(1) @MaxLength(128) id: string;
  @IsString() @MinLength(1) @MaxLength(40) type: string;
  @IsOptional() @IsString() @MaxLength(200) display_name?: string | null;
}

class VoiceRouteDto {
  @IsIn(['reject', 'trunk', 'forward'], { message: 'type must be reject, trunk or forward' })
  type: 'reject' | 'trunk' | 'forward';
  @IsOptional() @IsString() @MaxLength(128) trunk_id?: string;
  @IsOptional() @IsString() @MaxLength(32) forward_to?: string;
  @IsOptional() @IsIn(['dialed_number', 'calling_number']) forward_as?: string;
}

class VoiceTagDto {
  @IsString() @MaxLength(200) name: string;
  @IsString() @MaxLength(200) value: string;
}

class VoiceMediaQualityDto {
  @IsNumber() @Min(1) @Max(5) mos: number;
  @IsNumber() @Min(0) @Max(60_000) jitter_ms: number;
  @IsNumber() @Min(0) @Max(100) packet_loss_pct: number;
  @IsNumber() @Min(0) @Max(60_000) round_trip_time_ms: number;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;
class VoiceCostDto {
  @Matches(DECIMAL, { message: 'amount must be a decimal string' }) amount: string;
  @Matches(/^[A-Z]{3}$/, { message: 'currency_code must be ISO 4217' }) currency_code: string;
  @IsOptional() @Matches(DECIMAL) outbound_amount: string | null;
  @IsOptional() @Matches(DECIMAL) inbound_amount: string | null;
  @IsOptional() @Matches(DECIMAL) call_handling_amount: string | null;
  @IsOptional() @Matches(DECIMAL) recording_amount: string | null;
  @IsOptional() @Matches(DECIMAL) transcription_amount: string | null;
}

/** A leg's times in milliseconds at most: 31 days, far past any switch's call limit. */
const LEG_MS_MAX = 31 * 24 * 3600 * 1000;

/** A `VoiceCall` without `id`, as the SIP platform reports a leg's progress. */
export class ReportVoiceCallDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(128) session_id?: string | null;
  /** When given, the workspace of the path. */
  @IsOptional() @IsString() @MaxLength(64) workspace_id?: string;
  @IsIn(VOICE_CALL_DIRECTIONS, { message: 'direction must be inbound or outbound' })
  direction: VoiceCallDirection;
  @IsString() @MaxLength(32) from: string;
  @IsString() @MaxLength(32) to: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => VoiceActorDto) actor?: VoiceActorDto;
  @IsOptional() @IsString() @MaxLength(128) sip_trunk_id?: string | null;
  @IsIn(VOICE_CALL_STATUSES, { message: `status must be one of ${VOICE_CALL_STATUSES.join(', ')}` })
  status: VoiceCallStatus;
  @IsOptional() @IsInt() @Min(100) @Max(699) sip_response_code?: number | null;
  @IsOptional()
  @IsIn(VOICE_CALL_REJECTION_REASONS, {
    message: `rejection_reason must be one of ${VOICE_CALL_REJECTION_REASONS.join(', ')}`,
  })
  rejection_reason?: VoiceCallRejectionReason;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => VoiceRouteDto) route?: VoiceRouteDto;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => VoiceTagDto)
  tags?: VoiceTagDto[];
  @IsString() @MaxLength(40) started_at: string;
  @IsOptional() @IsString() @MaxLength(40) answered_at?: string | null;
  @IsOptional() @IsString() @MaxLength(40) ended_at?: string | null;
  @IsOptional() @IsInt() @Min(0) @Max(LEG_MS_MAX) duration_ms?: number | null;
  @IsOptional() @IsInt() @Min(0) @Max(LEG_MS_MAX) pdd_ms?: number;
  @IsOptional() @IsInt() @Min(0) @Max(LEG_MS_MAX) billable_ms?: number | null;
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => VoiceMediaQualityDto)
  media_quality?: VoiceMediaQualityDto;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => VoiceCostDto) cost?: VoiceCostDto;
}
