import { WHATSAPP_CONTENT_LIMITS as L } from '@switchboard/contracts';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateBy,
  ValidateNested,
} from 'class-validator';

const TAG_CHARSET = /^[A-Za-z0-9_-]+$/;

/** A `{name, value}` label of the tag charset. */
export class WhatsAppTagDto {
  @IsString()
  @MinLength(1)
  @MaxLength(L.tagName)
  @Matches(TAG_CHARSET, { message: 'name may hold ASCII letters, digits, _ and - only' })
  name: string;

  @IsString()
  @MinLength(1)
  @MaxLength(L.tagValue)
  @Matches(TAG_CHARSET, { message: 'value may hold ASCII letters, digits, _ and - only' })
  value: string;
}

/** A JSON object whose serialized form is at most `bytes` long. */
const MaxSerializedBytes = (bytes: number) =>
  ValidateBy({
    name: 'maxSerializedBytes',
    constraints: [bytes],
    validator: {
      validate: (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '') <= bytes,
      defaultMessage: (args) =>
        `${args?.property ?? 'value'} must be at most ${bytes} bytes serialized`,
    },
  });

/**
 * `POST /v1/whatsapp/messages` (SDK `WhatsappSendParams`). The DTO names the accepted fields, so
 * unknown ones are refused by name, and checks the tags and metadata; the recipient and the one
 * content field (`template`, `text`, `image`, `video`, `audio`, `sticker`, `document`, `location`,
 * `interactive`, `contact_cards`) are the sms-whatsapp service's rules (`validateWhatsAppSend`),
 * which answer `WhatsAppContentRequired`, `WhatsAppContentAmbiguous`, `WhatsAppInvalidRecipient`
 * and every rule of the content's kind in one 422.
 */
export class SendWhatsAppMessageDto {
  /** The recipient: a phone number in E.164 or a business-scoped user ID (`US.1349...`). */
  @Allow() to: unknown;
  /** The business number to send from, E.164; omitted for a Bird-managed template. */
  @IsOptional() from?: unknown;
  @IsOptional() template?: unknown;
  @IsOptional() text?: unknown;
  @IsOptional() image?: unknown;
  @IsOptional() video?: unknown;
  @IsOptional() audio?: unknown;
  @IsOptional() sticker?: unknown;
  @IsOptional() document?: unknown;
  @IsOptional() location?: unknown;
  @IsOptional() interactive?: unknown;
  @IsOptional() contact_cards?: unknown;
  /** A message of the same conversation to quote (`wam_...`). */
  @IsOptional() @IsString() @MaxLength(128) in_reply_to_message_id?: string;

  /** At most 20 `{name, value}` labels, names unique. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(L.tags, { message: `tags must hold at most ${L.tags} tags` })
  @ArrayUnique((tag: unknown) => (tag as { name?: unknown } | null)?.name, {
    message: 'tags must not repeat a tag name',
  })
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => WhatsAppTagDto)
  tags?: WhatsAppTagDto[];

  /** Any JSON object, at most 2 KB serialized. */
  @IsOptional()
  @IsObject()
  @MaxSerializedBytes(L.metadataBytes)
  metadata?: Record<string, unknown>;
}
