import {
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { ManagementPageQuery, QueryBoolean } from '../../pipeline/http/list-query.dto';

const NAME_RULE = { message: 'name must not be blank' };

export class CreateRealtimeAppDto {
  @IsString() @MinLength(1) @MaxLength(100) @Matches(/\S/, NAME_RULE) name: string;
  @IsString() @IsIn(['us1', 'eu1']) region: string;
  @IsOptional() @IsBoolean() connection_counting?: boolean;
}

/** Name and flags only; `region` and `tls_enforced` are accepted just to explain why they cannot change. */
export class UpdateRealtimeAppDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(100) @Matches(/\S/, NAME_RULE) name?: string;
  @IsOptional() @IsBoolean() connection_counting?: boolean;
  @IsOptional() @IsString() region?: string;
  @IsOptional() @IsBoolean() tls_enforced?: boolean;
}

export class ListRealtimeAppsQuery extends ManagementPageQuery {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(100) name?: string;
  @IsOptional()
  @IsIn(['created_at', 'name'], { message: 'sort must be one of created_at, name' })
  sort: 'created_at' | 'name' = 'created_at';
}

export class ListRealtimeKeysQuery {
  @IsOptional() @QueryBoolean() @IsBoolean() include_revoked: boolean = false;
}
