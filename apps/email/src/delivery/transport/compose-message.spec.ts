import { generateKeyPairSync } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { simpleParser } from 'mailparser';
import { composeMessage } from './compose-message';
import type { ComposedMail } from './compose-message';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function mail(overrides: Partial<ComposedMail> = {}): ComposedMail {
  return {
    messageId: 'em_01abc@sender.example',
    from: { email: 'news@sender.example', name: 'Sender Ltd' },
    to: [{ email: 'ann@example.com', name: 'Ann Ö' }],
    cc: [{ email: 'carl@example.org' }],
    replyTo: [{ email: 'help@sender.example' }],
    subject: 'Grüße — your order',
    text: 'Hello Ann,\nyour order shipped.',
    html: '<p>Hello Ann, <img src="cid:logo"></p>',
    headers: { 'X-Campaign': 'spring', 'List-Unsubscribe': '<mailto:u@sender.example>' },
    attachments: [
      {
        filename: 'invoice.txt',
        content: Buffer.from('total: 12').toString('base64'),
        contentType: 'text/plain',
      },
      {
        filename: 'logo.png',
        content: PNG.toString('base64'),
        contentType: 'image/png',
        contentId: 'logo',
      },
    ],
    ...overrides,
  };
}

describe(composeMessage.name, () => {
  it('writes the headers, bodies and attachments as given, with the Message-ID and Date', async () => {
    const date = new Date('2025-03-04T05:06:07Z');
    const raw = await composeMessage(mail(), date);
    const parsed = await simpleParser(raw);
    expect(parsed.messageId).toBe('<em_01abc@sender.example>');
    expect(parsed.date?.toISOString()).toBe(date.toISOString());
    expect(parsed.subject).toBe('Grüße — your order');
    expect(parsed.from?.value).toEqual([{ address: 'news@sender.example', name: 'Sender Ltd' }]);
    expect(parsed.headers.get('x-campaign')).toBe('spring');
    expect(parsed.text?.trim()).toBe('Hello Ann,\nyour order shipped.');
    expect(parsed.html).toContain('Hello Ann');
    const attachments = new Map(parsed.attachments.map((part) => [part.filename, part]));
    expect(attachments.get('invoice.txt')?.content.toString()).toBe('total: 12');
    expect(attachments.get('logo.png')?.content.equals(PNG)).toBe(true);
    expect(attachments.get('logo.png')?.contentId).toBe('<logo>');
  });

  it('writes a header named __proto__ as a header', async () => {
    const headers = JSON.parse('{"__proto__":"kept","X-After":"too"}') as Record<string, string>;
    const text = (await composeMessage(mail({ headers }))).toString('latin1');
    expect(text).toMatch(/^__proto__: kept\r$/m);
    expect(text).toMatch(/^X-After: too\r$/m);
  });

  it('is 7-bit with CRLF line ends only', async () => {
    const raw = await composeMessage(mail());
    expect([...raw].every((byte) => byte < 128)).toBe(true);
    expect(raw.toString('latin1')).not.toMatch(/[^\r]\n/);
  });

  it('never writes a Bcc header, nor a custom header that would replace its own', async () => {
    const raw = await composeMessage(
      mail({
        headers: {
          Bcc: 'hidden@example.com',
          'Message-ID': '<forged@evil.example>',
          From: 'ceo@evil.example',
          'X-Kept': 'yes',
        },
      }),
    );
    const text = raw.toString('latin1');
    expect(text).not.toMatch(/^bcc:/im);
    expect(text).not.toContain('hidden@example.com');
    expect(text).not.toContain('evil.example');
    const parsed = await simpleParser(raw);
    expect(parsed.messageId).toBe('<em_01abc@sender.example>');
    expect(parsed.headers.get('x-kept')).toBe('yes');
  });

  it('signs with DKIM: the signature verifies against the public key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const raw = await composeMessage(
      mail({
        dkim: {
          domainName: 'sender.example',
          keySelector: 'sb1',
          privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        },
      }),
    );
    const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
    const names: string[] = [];
    const result = await dkimVerify(raw, {
      resolver: (name: string) => {
        names.push(name);
        return Promise.resolve([record.match(/.{1,255}/g) ?? []]);
      },
    });
    expect(names).toEqual(['sb1._domainkey.sender.example']);
    expect(result.results[0].status.result).toBe('pass');
    // Changing a signed byte breaks it: the check is real.
    const tampered = Buffer.from(
      raw.toString('latin1').replace('Hello Ann', 'Hello Bob'),
      'latin1',
    );
    const broken = await dkimVerify(tampered, {
      resolver: () => Promise.resolve([record.match(/.{1,255}/g) ?? []]),
    });
    expect(broken.results[0].status.result).not.toBe('pass');
  });
});
