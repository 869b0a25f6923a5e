import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';

/**
 * A WhatsApp connector's `arguments`: a number of an account, or a legacy channel to migrate.
 * Which combination is acceptable, and each value's format, is the service's to say.
 */
export class WhatsAppConnectorArgumentsDto {
  @IsOptional() @IsString() @MaxLength(64) wabaId?: string;
  @IsOptional() @IsString() @MaxLength(64) phoneId?: string;
  @IsOptional() @IsString() @MaxLength(32) phoneNumber?: string;
  @IsOptional() @IsString() @MaxLength(16) phoneRegistrationPin?: string;
  @IsOptional() @IsBoolean() isCpMigrated?: boolean;
  @IsOptional() @IsString() @MaxLength(512) cpChannelId?: string;
  @IsOptional() @IsString() @MaxLength(512) cpAccessKey?: string;
}

/** `POST /workspaces/{workspace_id}/connectors` (spec: Connector). */
export class CreateConnectorDto {
  @IsString() @MinLength(1) @MaxLength(64) connectorTemplateRef: string;
  @IsString() @MinLength(1) @MaxLength(200) name: string;
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => WhatsAppConnectorArgumentsDto)
  arguments: WhatsAppConnectorArgumentsDto;
}

/** The workspace API's pages (contract section 7): `pageToken` passes `nextPageToken` back. */
export class ListChannelGroupsQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) limit: number = 25;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(2048) pageToken?: string;
}
