import { VERIFICATION_CHANNELS, VERIFY_LIMITS } from '@switchboard/contracts';
import type { VerificationChannelName } from '@switchboard/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

/** `to`: an email, a phone number or both (the service checks which are valid and given). */
export class VerificationToDto {
  @IsOptional() @IsString() @MaxLength(VERIFY_LIMITS.emailLength) email?: string;
  @IsOptional() @IsString() @MaxLength(VERIFY_LIMITS.phoneNumberLength) phone_number?: string;
}

/** Per-request overrides (SDK: VerificationOptions). */
export class VerificationOptionsDto {
  @IsOptional() @IsInt() code_length?: number;
  /**
   * An open list (SDK): a channel this deployment does not know, like one not enabled for the
   * recipient, is ignored; only a plan left with none is refused (the service's E13003).
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(VERIFICATION_CHANNELS.length * 4)
  @IsString({ each: true })
  @MaxLength(32, { each: true })
  channels?: VerificationChannelName[];
  /** Any tag: one without a translation falls back to its base language, then English (SDK). */
  @IsOptional()
  @IsString()
  @MaxLength(35)
  @Matches(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, {
    message: 'language must be a BCP 47 language tag such as en, nl or pt-BR',
  })
  language?: string;
}

/** `POST /v1/verify/verifications` (SDK: VerifyVerificationsCreateParams). */
export class CreateVerificationDto {
  @IsObject() @ValidateNested() @Type(() => VerificationToDto) to: VerificationToDto;
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => VerificationOptionsDto)
  options?: VerificationOptionsDto;
  @IsOptional() @IsObject() metadata?: Record<string, unknown>;
}

/** `POST /v1/verify/verifications/check` (SDK: VerifyVerificationsCheckParams). */
export class CheckVerificationDto {
  @IsObject() @ValidateNested() @Type(() => VerificationToDto) to: VerificationToDto;
  @IsString() @MaxLength(VERIFY_LIMITS.maxSubmittedCodeLength) code: string;
}

/** `POST /v1/verify/verifications/next-channel` (SDK: VerifyVerificationsNextChannelParams). */
export class NextChannelDto {
  @IsObject() @ValidateNested() @Type(() => VerificationToDto) to: VerificationToDto;
}
