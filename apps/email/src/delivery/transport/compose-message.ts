import { createPrivateKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { EmailAddress } from '@switchboard/contracts';
import DKIM from 'nodemailer/lib/dkim';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { OutboundMail } from './outbound-mail';

/** The part of a mail that makes its content: the envelope is not in the bytes. */
export type ComposedMail = Omit<OutboundMail, 'envelopeFrom' | 'recipients'>;

/**
 * Headers the composer writes itself, or that only a receiving system may add: a custom header
 * of one of these names is dropped rather than sent twice or forged (a `Bcc` header would
 * disclose the blind recipients).
 */
const RESERVED_HEADERS = new Set([
  'from',
  'sender',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'subject',
  'message-id',
  'date',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'content-disposition',
  'dkim-signature',
  'authentication-results',
  'arc-seal',
  'arc-message-signature',
  'arc-authentication-results',
  'return-path',
  'received',
]);

/**
 * The exact RFC 5322 bytes the transport sends for `mail` (CRLF line ends, 7-bit clean, DKIM
 * signed when `mail.dkim` is given): Message-ID from `messageId`, Date `date`, no Bcc header, the
 * custom headers as given except the reserved ones above. Attachments are base64 in, decoded into
 * the MIME tree; one with a `contentId` is embedded beside the HTML (multipart/related). Nothing is
 * read from files or URLs. Throws only on content the composer cannot encode (a malformed DKIM key).
 */
export async function composeMessage(mail: ComposedMail, date: Date = new Date()): Promise<Buffer> {
  // No prototype: a header named __proto__ stays a header.
  const headers = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(mail.headers)) {
    if (!RESERVED_HEADERS.has(name.trim().toLowerCase())) headers[name] = value;
  }
  const composer = new MailComposer({
    from: address(mail.from),
    to: mail.to.map(address),
    cc: mail.cc.length ? mail.cc.map(address) : undefined,
    replyTo: mail.replyTo.length ? mail.replyTo.map(address) : undefined,
    subject: mail.subject,
    messageId: `<${mail.messageId}>`,
    date,
    html: mail.html,
    text: mail.text,
    headers,
    attachments: mail.attachments.map((attachment) => ({
      filename: attachment.filename,
      content: attachment.content,
      encoding: 'base64',
      contentType: attachment.contentType,
      cid: attachment.contentId,
    })),
    newline: 'win',
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const unsigned = await composer.compile().build();
  if (!mail.dkim) return unsigned;
  const signer = new DKIM({
    domainName: mail.dkim.domainName,
    keySelector: mail.dkim.keySelector,
    privateKey: parsedKey(mail.dkim.privateKey),
    headerFieldNames: SIGNED_HEADERS,
  });
  return collect(signer.sign(unsigned));
}

/**
 * The headers the DKIM signature covers (when present): nodemailer's list (RFC 6376 5.4.1's
 * recommendation) and `List-Unsubscribe-Post`, which RFC 8058 section 4 requires to be signed
 * beside `List-Unsubscribe` for a one-click unsubscribe to be honoured.
 */
const SIGNED_HEADERS =
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:' +
  'Content-Transfer-Encoding:Content-ID:Content-Description:Resent-Date:Resent-From:' +
  'Resent-Sender:Resent-To:Resent-Cc:Resent-Message-ID:In-Reply-To:References:List-Id:' +
  'List-Help:List-Unsubscribe:List-Unsubscribe-Post:List-Subscribe:List-Post:List-Owner:' +
  'List-Archive';

/**
 * Parsing an RSA-2048 PEM costs about as much as signing with it; a domain signs many messages,
 * so each key is parsed once (a small map; a rotated key simply adds an entry).
 */
const parsedKeys = new Map<string, KeyObject>();
function parsedKey(pem: string): KeyObject {
  let key = parsedKeys.get(pem);
  if (!key) {
    if (parsedKeys.size >= 256) parsedKeys.clear();
    key = createPrivateKey(pem);
    parsedKeys.set(pem, key);
  }
  return key;
}

function address(value: EmailAddress): { name: string; address: string } {
  return { name: value.name ?? '', address: value.email };
}

function collect(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('error', reject);
    stream.once('end', () => resolve(Buffer.concat(chunks)));
  });
}
