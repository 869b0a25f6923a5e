import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CommitBatcher, wakeQueue, writeTogetherOrAlone } from '@switchboard/background';
import { WhatsAppWebhookErrors } from '@switchboard/contracts';
import type {
  WhatsAppWebhookChallengeRequest,
  WhatsAppWebhookReceiveRequest,
} from '@switchboard/contracts';
import { pgPoolOf, poolRunner } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError } from '@switchboard/platform';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { SMS_WHATSAPP_CONFIG } from '../../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { WEBHOOK_INBOX_QUEUE, WebhookInboxRepository } from './webhook-inbox.repository';
import { payloadText, signatureOf } from './webhook-signature';

/**
 * Meta's side of the endpoint: the subscription challenge, and each signed webhook recorded in
 * the inbox with its job before it is answered. The webhooks that arrive while one statement
 * runs are written together by the next (group commit: one WAL flush for many, each answered
 * after it). Nothing of a webhook is read before it is recorded but what refuses garbage.
 */
@Injectable()
export class WebhookIntakeService {
  private readonly pool: Pool;
  private readonly autocommit: SqlRunner;
  private readonly writes = new CommitBatcher<string>((bodies) => this.store(bodies));

  constructor(
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
    @Inject(SMS_WHATSAPP_CONFIG) private readonly config: SmsWhatsappConfig,
    private readonly inbox: WebhookInboxRepository,
  ) {
    this.pool = pgPoolOf(dataSource);
    this.autocommit = poolRunner(dataSource);
  }

  challenge(request: WhatsAppWebhookChallengeRequest): { challenge: string } {
    const expected = this.config.WHATSAPP_VERIFY_TOKEN;
    if (!expected) throw new AppError(WhatsAppWebhookErrors.WhatsAppWebhookVerifyTokenUnset);
    if (request.mode !== 'subscribe' || request.challenge === undefined)
      throw new AppError(WhatsAppWebhookErrors.WhatsAppWebhookChallengeInvalid);
    if (!sameSecret(request.verifyToken ?? '', expected))
      throw new AppError(WhatsAppWebhookErrors.WhatsAppWebhookVerifyTokenMismatch);
    return { challenge: request.challenge };
  }

  async receive(request: WhatsAppWebhookReceiveRequest): Promise<null> {
    const secret = this.config.WHATSAPP_APP_SECRET;
    if (!secret) throw new AppError(WhatsAppWebhookErrors.WhatsAppWebhookSecretUnset);
    const body = Buffer.from(request.bodyBase64, 'base64');
    switch (signatureOf(secret, body, request.signature)) {
      case 'missing':
        throw new AppError(WhatsAppWebhookErrors.WhatsAppWebhookSignatureMissing);
      case 'invalid':
        throw new AppError(WhatsAppWebhookErrors.WhatsAppWebhookSignatureInvalid);
      case 'valid':
        break;
    }
    // Signed but not a JSON object: it cannot be Meta's and could never be applied; refused
    // (400, so whoever signed it sees the mistake) rather than kept as a row nothing can process.
    const text = payloadText(body);
    if (text === undefined) throw new AppError(WhatsAppWebhookErrors.WhatsAppWebhookBodyInvalid);
    await this.writes.add(text);
    return null;
  }

  /**
   * One statement for the waiting webhooks; if it fails and held several, each is written
   * alone, so one PostgreSQL refuses fails (and is retried by Meta) by itself.
   */
  private async store(bodies: string[]): Promise<unknown[]> {
    const failures = await writeTogetherOrAlone(bodies, (some) =>
      this.inbox.store(this.autocommit, some),
    );
    wakeQueue(this.pool, 'sms_whatsapp', WEBHOOK_INBOX_QUEUE);
    return failures;
  }
}

/** Constant-time equality of two secrets of any length (compared as their SHA-256 digests). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
