import { Allow, IsBoolean, IsOptional } from 'class-validator';
import { PageQuery } from '../../pipeline/http/list-query.dto';

export class MarkWhatsAppReadDto {
  /** Show a typing indicator to the contact as well (it lasts until you reply, or 25 seconds). */
  @IsOptional() @IsBoolean() typing_indicator?: boolean;
}

export class SetWhatsAppReactionDto {
  /** Exactly one emoji: the sms-whatsapp service counts graphemes and answers 422 otherwise. */
  @Allow() emoji: unknown;
}

/** The reaction log newest first, with keyset cursors. */
export class ListWhatsAppReactionEventsQuery extends PageQuery {}
