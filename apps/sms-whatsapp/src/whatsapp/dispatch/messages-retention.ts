import { Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { WHATSAPP_MESSAGE_LIMITS } from '@switchboard/contracts';
import { inChunks } from '@switchboard/persistence';
import { MessagesRetentionRepository } from './messages-retention.repository';

const EVERY_MS = 10 * 60_000;
/** Rows per statement, so one pass never holds many locks or a long transaction. */
const CHUNK = 5_000;

/**
 * The SDK's retention bounds for WhatsApp messages: Meta's wamid is cleared after 15 days (a
 * message can no longer be quoted, reacted to or marked read); the message, its timeline, its
 * media rows, reaction log and stats dedupe keys are deleted after 30; and service windows long
 * closed go. Runs every ten minutes in chunks; running on several replicas at once only repeats
 * work already done.
 */
@Injectable()
export class WhatsAppMessagesRetention
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger(WhatsAppMessagesRetention.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(private readonly repository: MessagesRetentionRepository) {}

  onApplicationBootstrap(): void {
    const tick = () => {
      this.running ??= this.expire()
        .then(() => undefined)
        .catch((err: Error) => this.logger.warn(`retention pass failed: ${err.message}`))
        .finally(() => (this.running = undefined));
    };
    setImmediate(tick);
    this.timer = setInterval(tick, EVERY_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass: chunks until nothing is left past either bound. */
  async expire(now = new Date()): Promise<{ cleared: number; deleted: number }> {
    const day = 86_400_000;
    const providerBound = new Date(now.getTime() - WHATSAPP_MESSAGE_LIMITS.providerIdDays * day);
    const messageBound = new Date(now.getTime() - WHATSAPP_MESSAGE_LIMITS.retentionDays * day);
    const cleared = await inChunks(CHUNK, () =>
      this.repository.clearProviderIds(providerBound, CHUNK),
    );
    const deleted = await inChunks(CHUNK, () =>
      this.repository.deleteMessages(messageBound, CHUNK),
    );
    await this.repository.deleteClosedWindows();
    return { cleared, deleted };
  }
}
