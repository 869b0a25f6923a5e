import { createTransport } from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { EmailConfig } from '../../config/email.config';
import type { MailTransportOptions } from './mail-transport';
import type { RecipientResult } from './outbound-mail';
import { resultsFromError, resultsFromInfo } from './smtp-replies';
import { sendOver, SmtpTransport } from './smtp-transport';

/** The destination of every recipient when a relay takes all mail. */
const RELAY_DESTINATION = 'relay';

/**
 * Every message to the relay of SMTP_RELAY_URL (user and password in the URL if it wants them),
 * over one pool of connections reused across messages; the relay's replies, recipient by
 * recipient, are the results.
 */
export class SmtpRelayTransport extends SmtpTransport {
  private readonly relay: Transporter;
  private readonly relayName: string;

  constructor(config: EmailConfig, options: MailTransportOptions = {}) {
    super(config, options);
    const url = config.SMTP_RELAY_URL;
    if (!url) throw new Error('SmtpRelayTransport needs SMTP_RELAY_URL');
    this.relayName = relayHost(url);
    this.relay = createTransport({ ...this.poolOptions(), pool: true, url });
  }

  destinationOf(): string {
    return RELAY_DESTINATION;
  }

  protected async deliverBatch(
    _destination: string,
    envelopeFrom: string,
    recipients: string[],
    raw: Buffer,
  ): Promise<RecipientResult[]> {
    const attempt = await sendOver(this.relay, envelopeFrom, recipients, raw);
    return 'info' in attempt
      ? resultsFromInfo(recipients, attempt.info)
      : resultsFromError(recipients, attempt.error, `to relay ${this.relayName}`);
  }

  protected closeConnections(): void {
    this.relay.close();
  }
}

/** `host:port` of the relay, for replies' context; never its credentials. */
function relayHost(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname;
  } catch {
    return 'relay';
  }
}
