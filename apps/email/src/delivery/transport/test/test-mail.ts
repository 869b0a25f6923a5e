import { loadConfig } from '@switchboard/platform';
import { emailEnv } from '../../../config/email.config';
import type { EmailConfig } from '../../../config/email.config';
import type { OutboundMail } from '../outbound-mail';
import type { Reply } from './test-servers';

/** The name the transports give in EHLO in these tests. */
export const HELO = 'mta.switchboard.test';

/** The service's configuration from these variables (and what every test needs). */
export function configWith(env: Record<string, string>): EmailConfig {
  return loadConfig(emailEnv, {
    ENCRYPTION_KEY: 'test-encryption-key-0123456789',
    EMAIL_HELO_NAME: HELO,
    ...env,
  });
}

let sequence = 0;
/** A small message from news@sender.test to ann@example.test, with a fresh Message-ID. */
export function mail(overrides: Partial<OutboundMail> = {}): OutboundMail {
  sequence++;
  return {
    messageId: `em_${sequence}_${Date.now()}@sender.test`,
    from: { email: 'news@sender.test', name: 'Sender' },
    to: [{ email: 'ann@example.test', name: 'Ann' }],
    cc: [],
    replyTo: [],
    subject: 'Hello',
    text: 'Hello there',
    html: '<p>Hello there</p>',
    headers: { 'X-Campaign': 'spring' },
    attachments: [],
    envelopeFrom: 'bounces@rp.sender.test',
    recipients: ['ann@example.test'],
    ...overrides,
  };
}

/** RCPT TO replies by local part, the same on every test server: nobody 550, later 451. */
export function rcptRules(address: string): Reply | undefined {
  const local = address.split('@')[0];
  if (local === 'nobody') return { code: 550, message: '5.1.1 nobody: user unknown' };
  if (local === 'later') return { code: 451, message: '4.2.1 try again later' };
  return undefined;
}
