import { IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * Meta's subscription challenge. Every field is optional here: a missing one is the service's
 * 403 (the contract's answer to anything but a right challenge), not a 422.
 */
export class WhatsAppWebhookChallengeQuery {
  @IsOptional() @IsString() @MaxLength(100) 'hub.mode'?: string;
  @IsOptional() @IsString() @MaxLength(1000) 'hub.verify_token'?: string;
  @IsOptional() @IsString() @MaxLength(1000) 'hub.challenge'?: string;
}
