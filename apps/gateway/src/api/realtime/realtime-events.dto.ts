import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';

/*
 * Shapes only: the realtime service applies the channel and event name rules, the payload size
 * and the `include` rules, naming the offending field.
 */

const INCLUDES = ['member_count', 'connection_count'] as const;
type Include = (typeof INCLUDES)[number];

/** `include` may be repeated in a query (`include=a&include=b`) or given once. */
const QueryArray = () =>
  Transform(({ value }: { value: unknown }) =>
    value === undefined ? undefined : Array.isArray(value) ? value : [value],
  );

export class PublishEventDto {
  @IsString() @MinLength(1) @MaxLength(200) event: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100, { message: 'at most 100 channels per publish' })
  @IsString({ each: true })
  channels: string[];

  @IsOptional() data?: unknown;
  @IsOptional() @IsString() @MaxLength(100) exclude_connection_id?: string;

  @IsOptional()
  @IsArray()
  @IsIn(INCLUDES, { each: true, message: 'include items are member_count or connection_count' })
  include?: Include[];
}

export class BatchEventDto {
  @IsString() @MinLength(1) @MaxLength(200) event: string;
  @IsString() @MinLength(1) @MaxLength(200) channel: string;
  @IsOptional() data?: unknown;
  @IsOptional() @IsString() @MaxLength(100) exclude_connection_id?: string;

  @IsOptional()
  @IsArray()
  @IsIn(INCLUDES, { each: true, message: 'include items are member_count or connection_count' })
  include?: Include[];
}

export class PublishBatchDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10, { message: 'at most 10 events per batch' })
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => BatchEventDto)
  events: BatchEventDto[];
}

export class MemberEventDto {
  @IsString() @MinLength(1) @MaxLength(200) event: string;
  @IsOptional() data?: unknown;
}

export class ChannelsQuery {
  @IsOptional() @IsString() @MaxLength(164) prefix?: string;

  @IsOptional()
  @QueryArray()
  @IsArray()
  @IsIn(INCLUDES, { each: true, message: 'include items are member_count or connection_count' })
  include?: Include[];
}

export class ChannelQuery {
  @IsOptional()
  @QueryArray()
  @IsArray()
  @IsIn(INCLUDES, { each: true, message: 'include items are member_count or connection_count' })
  include?: Include[];
}
