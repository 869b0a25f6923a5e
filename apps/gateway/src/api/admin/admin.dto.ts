import {
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import type { Role } from '@switchboard/contracts';

const ROLES: Role[] = ['read', 'write', 'admin'];

export class CreateWorkspaceDto {
  @IsString() @IsNotEmpty() @MaxLength(200) name: string;
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(200) organization_name?: string;
  @IsOptional()
  @IsString()
  @Matches(/^[a-z]{2}[0-9]+$/, { message: 'region must look like us1' })
  region?: string;
}

export class CreateApiKeyDto {
  @IsIn(ROLES) role: Role;
}

export class CreateUserDto {
  @IsEmail() @MaxLength(320) email: string;
  @IsString() @MinLength(8) @MaxLength(200) password: string;
  @IsIn(ROLES) role: Role;
}
