import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

/** `true`/`false` query strings to booleans; anything else stays as given and fails validation. */
export const QueryBoolean = () =>
  Transform(({ value }: { value: unknown }) =>
    value === 'true' ? true : value === 'false' ? false : value,
  );

/** The shared cursor pagination parameters (spec: Pagination). */
export class PageQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) limit: number = 25;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(2048) starting_after?: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(2048) ending_before?: string;
}

/** Pagination of management lists, which may also report the total. */
export class ManagementPageQuery extends PageQuery {
  @IsOptional() @QueryBoolean() @IsBoolean() include_total?: boolean;
  @IsOptional() @IsIn(['asc', 'desc']) order?: 'asc' | 'desc';
}
