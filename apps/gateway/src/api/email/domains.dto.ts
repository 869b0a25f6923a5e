import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ManagementPageQuery } from '../../pipeline/http/list-query.dto';

/*
 * Shapes only: the email service normalises and checks the domain name and the return-path
 * label (lowercase, hostname rules, length) and refuses what this deployment cannot do (tracking,
 * delegated DKIM, inbound) with E01017 naming the field.
 */

export class DomainSettingsDto {
  @IsOptional() @IsBoolean() click_tracking?: boolean;
  @IsOptional() @IsBoolean() open_tracking?: boolean;
}

export class DomainNamePartDto {
  @IsString() @MinLength(1) @MaxLength(63) name: string;
}

export class DomainDkimDto {
  @IsOptional()
  @IsIn(['txt', 'delegated'], { message: 'mode must be one of txt, delegated' })
  mode?: 'txt' | 'delegated';
}

export class DomainInboundDto {
  @IsBoolean() enabled: boolean;
}

export class CreateDomainDto {
  @IsString() @MinLength(1) @MaxLength(300) domain: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DomainNamePartDto)
  return_path?: DomainNamePartDto;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DomainNamePartDto)
  tracking?: DomainNamePartDto;

  @IsOptional() @IsObject() @ValidateNested() @Type(() => DomainDkimDto) dkim?: DomainDkimDto;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DomainSettingsDto)
  settings?: DomainSettingsDto;
}

/** Partial: only the fields sent change. `tracking: null` removes tracking. */
export class UpdateDomainDto {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DomainSettingsDto)
  settings?: DomainSettingsDto;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DomainNamePartDto)
  return_path?: DomainNamePartDto;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DomainNamePartDto)
  tracking?: DomainNamePartDto | null;

  @IsOptional() @IsObject() @ValidateNested() @Type(() => DomainDkimDto) dkim?: DomainDkimDto;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DomainInboundDto)
  inbound?: DomainInboundDto;
}

export class ListDomainsQuery extends ManagementPageQuery {
  /** Case-insensitive substring of the domain name. */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(253) name?: string;
  @IsOptional()
  @IsIn(['created_at', 'name'], { message: 'sort must be one of created_at, name' })
  sort: 'created_at' | 'name' = 'created_at';
}
