import type { EmailSendRequest } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import fc from 'fast-check';
import {
  estimateGeneratedSize,
  normaliseAddressList,
  normaliseBatchRequest,
  normaliseSendRequest,
  SEND_LIMITS,
  sendProblemsError,
} from './send-request.normaliser';
import type { Normalised, SendProblem } from './send-request.normaliser';

const NOW = new Date('2030-01-01T12:00:00.000Z');
const options = { now: NOW };
const minimal = {
  from: 'hello@acme.com',
  to: ['jane@example.com'],
  subject: 'Hi',
  html: '<p>Hi</p>',
};

function normalised(input: unknown): EmailSendRequest {
  const result = normaliseSendRequest(input, options);
  if (!result.ok) throw new Error(`unexpected problems: ${JSON.stringify(result.problems)}`);
  return result.value;
}

function problemsOf<T>(result: Normalised<T>): SendProblem[] {
  if (result.ok) throw new Error(`expected problems, got ${JSON.stringify(result.value)}`);
  return result.problems;
}

function problems(input: unknown): SendProblem[] {
  return problemsOf(normaliseSendRequest(input, options));
}

function params(input: unknown): string[] {
  return problems(input).map((p) => p.param);
}

describe('normaliseSendRequest', () => {
  describe('a valid send', () => {
    it('fills every default: empty lists, marketing, tracking off, no headers', () => {
      expect(normalised(minimal)).toEqual({
        from: { email: 'hello@acme.com' },
        to: [{ email: 'jane@example.com' }],
        cc: [],
        bcc: [],
        reply_to: [],
        subject: 'Hi',
        html: '<p>Hi</p>',
        category: 'marketing',
        tags: [],
        headers: {},
        attachments: [],
        track_opens: false,
        track_clicks: false,
      });
    });

    it('keeps every optional field it is given, normalised', () => {
      const request = normalised({
        ...minimal,
        from: { email: ' Hello@ACME.com ', name: ' Acme ' },
        cc: ['"Doe, Jane" <Jane.Doe@Example.com>'],
        bcc: [{ email: 'audit@acme.com' }],
        reply_to: ['Support <support@acme.com>'],
        text: 'Hi',
        category: 'transactional',
        tags: [{ name: 'flow', value: 'signup-2' }],
        metadata: { order_id: 'o_1', nested: { a: [1, 2] } },
        parameters: { first_name: 'Jane' },
        headers: { 'X-Campaign': 'spring', 'List-Unsubscribe': '<mailto:u@acme.com>' },
        track_opens: true,
        track_clicks: true,
        ip_pool_id: 'ipp_shared',
        scheduled_at: '2030-01-02T09:30:00+02:00',
      });
      expect(request).toEqual({
        from: { email: 'hello@acme.com', name: 'Acme' },
        to: [{ email: 'jane@example.com' }],
        cc: [{ email: 'jane.doe@example.com', name: 'Doe, Jane' }],
        bcc: [{ email: 'audit@acme.com' }],
        reply_to: [{ email: 'support@acme.com', name: 'Support' }],
        subject: 'Hi',
        html: '<p>Hi</p>',
        text: 'Hi',
        category: 'transactional',
        tags: [{ name: 'flow', value: 'signup-2' }],
        metadata: { order_id: 'o_1', nested: { a: [1, 2] } },
        parameters: { first_name: 'Jane' },
        headers: { 'X-Campaign': 'spring', 'List-Unsubscribe': '<mailto:u@acme.com>' },
        attachments: [],
        track_opens: true,
        track_clicks: true,
        ip_pool_id: 'ipp_shared',
        scheduled_at: '2030-01-02T07:30:00.000Z',
      });
    });

    it('treats null like an absent optional field', () => {
      expect(normalised({ ...minimal, cc: null, tags: null, scheduled_at: null })).toMatchObject({
        cc: [],
        tags: [],
      });
    });

    it('accepts a text-only send and leaves out an empty html body', () => {
      const request = normalised({ ...minimal, html: '', text: 'plain' });
      expect(request.html).toBeUndefined();
      expect(request.text).toBe('plain');
    });
  });

  describe('addresses', () => {
    it.each([
      ['jane@example.com', { email: 'jane@example.com' }],
      ['  JANE@Example.COM ', { email: 'jane@example.com' }],
      ['Jane Doe <jane@example.com>', { email: 'jane@example.com', name: 'Jane Doe' }],
      ['"Doe, Jane" <jane@example.com>', { email: 'jane@example.com', name: 'Doe, Jane' }],
      [
        '"Jane \\"JD\\" Doe" <jane@example.com>',
        { email: 'jane@example.com', name: 'Jane "JD" Doe' },
      ],
      ['<jane@example.com>', { email: 'jane@example.com' }],
      ['Zoë Ødegård <zoe@example.co.uk>', { email: 'zoe@example.co.uk', name: 'Zoë Ødegård' }],
      [{ email: 'jane@example.com', name: '' }, { email: 'jane@example.com' }],
      [{ email: "o'brien+tag@sub.example.museum" }, { email: "o'brien+tag@sub.example.museum" }],
      [{ email: 'x@xn--bcher-kva.example' }, { email: 'x@xn--bcher-kva.example' }],
    ])('accepts %j', (input, expected) => {
      expect(normalised({ ...minimal, to: [input] }).to).toEqual([expected]);
    });

    it.each([
      'jane',
      'jane@',
      '@example.com',
      'jane@example',
      'jane@@example.com',
      'ja ne@example.com',
      'jane@exa mple.com',
      'jane@example.com\r\nBcc: x@evil.com',
      'jane@example.com\n',
      'jane@-example.com',
      'jane@example-.com',
      'jane@example..com',
      '.jane@example.com',
      'ja..ne@example.com',
      'jane@1.2.3.4',
      'jane@example.c0m1',
      'jäne@example.com',
      `${'a'.repeat(65)}@example.com`,
      `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(63)}.com`,
      'Jane <jane@example.com',
      '"Jane <jane@example.com>',
      'Jane "J <jane@example.com>',
      'A <b@example.com> <c@example.com>',
      '',
    ])('rejects %j naming its index', (address) => {
      expect(params({ ...minimal, to: ['ok@example.com', address] })).toEqual(['to[1]']);
    });

    it('rejects bad object addresses naming the field, and unknown fields', () => {
      expect(
        problems({
          ...minimal,
          to: [
            { email: 'bad' },
            { name: 'x' },
            { email: 'a@example.com', name: 'a\r\nb' },
            { email: 'a@example.com', role: 'cc' },
            7,
          ],
        }).map((p) => p.param),
      ).toEqual(['to[0].email', 'to[1].email', 'to[2].name', 'to[3].role', 'to[4]']);
    });

    it('keeps one recipient per address, where it is first listed', () => {
      const request = normalised({
        ...minimal,
        to: ['dup@example.com', 'DUP@example.com', 'jane@example.com'],
        cc: ['dup@example.com', 'Cc@example.com'],
        bcc: ['cc@EXAMPLE.com', 'Dup@Example.com', 'bob@example.com'],
      });
      expect([request.to, request.cc, request.bcc].map((l) => l.map((a) => a.email))).toEqual([
        ['dup@example.com', 'jane@example.com'],
        ['cc@example.com'],
        ['bob@example.com'],
      ]);
    });

    it('requires from and at least one to', () => {
      expect(params({ subject: 'x', text: 'y' })).toEqual(['from', 'to']);
      expect(params({ ...minimal, to: [] })).toEqual(['to']);
      expect(params({ ...minimal, to: 'jane@example.com' })).toEqual(['to']);
    });

    it(`accepts ${SEND_LIMITS.recipients} recipients across to, cc and bcc and rejects one more`, () => {
      const many = (n: number, tag: string) =>
        Array.from({ length: n }, (_, i) => `${tag}${i}@example.com`);
      expect(
        normalised({ ...minimal, to: many(30, 't'), cc: many(10, 'c'), bcc: many(10, 'b') }).bcc,
      ).toHaveLength(10);
      const tooMany = problems({
        ...minimal,
        to: many(30, 't'),
        cc: many(11, 'c'),
        bcc: many(10, 'b'),
      });
      expect(tooMany).toEqual([
        expect.objectContaining({ param: 'to', message: expect.stringContaining('51') }),
      ]);
    });

    it('accepts 25 reply_to addresses and rejects 26', () => {
      const list = (n: number) => Array.from({ length: n }, (_, i) => `r${i}@acme.com`);
      expect(normalised({ ...minimal, reply_to: list(25) }).reply_to).toHaveLength(25);
      expect(params({ ...minimal, reply_to: list(26) })).toEqual(['reply_to']);
    });
  });

  describe('content', () => {
    it('requires a subject of at most 998 characters on one line', () => {
      expect(params({ ...minimal, subject: undefined })).toEqual(['subject']);
      expect(params({ ...minimal, subject: '  ' })).toEqual(['subject']);
      expect(params({ ...minimal, subject: 5 })).toEqual(['subject']);
      expect(params({ ...minimal, subject: 'a\r\nBcc: x@evil.com' })).toEqual(['subject']);
      expect(normalised({ ...minimal, subject: 'é'.repeat(998) }).subject).toHaveLength(998);
      expect(normalised({ ...minimal, subject: '😀'.repeat(998) }).subject).toHaveLength(1996);
      expect(problems({ ...minimal, subject: 'a'.repeat(999) })).toEqual([
        expect.objectContaining({ param: 'subject', message: 'must be at most 998 characters' }),
      ]);
    });

    it('requires html or text', () => {
      expect(params({ ...minimal, html: undefined })).toEqual(['html']);
      expect(params({ ...minimal, html: '', text: '' })).toEqual(['html']);
      expect(params({ ...minimal, html: 3 })).toEqual(['html']);
    });

    it('takes marketing or transactional only', () => {
      expect(params({ ...minimal, category: 'promotional' })).toEqual(['category']);
    });
  });

  describe('tags, metadata and parameters', () => {
    const tags = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ name: `t${i}`, value: 'v' }));

    it('takes 20 unique tags of the allowed charset and lengths', () => {
      expect(normalised({ ...minimal, tags: tags(20) }).tags).toHaveLength(20);
      expect(params({ ...minimal, tags: tags(21) })).toEqual(['tags']);
      expect(
        params({
          ...minimal,
          tags: [
            { name: 'a b', value: 'v' },
            { name: 'a'.repeat(33), value: 'v' },
            { name: 'ok', value: 'v'.repeat(65) },
            { name: 'ok2', value: 'é' },
            { name: 'ok3' },
            { name: 'ok4', value: 'v', extra: 1 },
            { name: 'dup', value: 'a' },
            { name: 'dup', value: 'b' },
            'flow:signup',
          ],
        }),
      ).toEqual([
        'tags[0].name',
        'tags[1].name',
        'tags[2].value',
        'tags[3].value',
        'tags[4].value',
        'tags[5].extra',
        'tags[7].name',
        'tags[8]',
      ]);
      expect(
        normalised({ ...minimal, tags: [{ name: 'a'.repeat(32), value: 'b'.repeat(64) }] }).tags,
      ).toHaveLength(1);
    });

    it('limits metadata to a 2 KB object', () => {
      expect(normalised({ ...minimal, metadata: { k: 'x'.repeat(2000) } }).metadata).toBeDefined();
      expect(params({ ...minimal, metadata: { k: 'x'.repeat(2048) } })).toEqual(['metadata']);
      expect(params({ ...minimal, metadata: ['a'] })).toEqual(['metadata']);
      expect(params({ ...minimal, metadata: 'a' })).toEqual(['metadata']);
    });

    it('limits parameters to a 16 KB object of single-word names without bird', () => {
      expect(normalised({ ...minimal, parameters: {} }).parameters).toEqual({});
      expect(params({ ...minimal, parameters: { k: 'x'.repeat(16 * 1024) } })).toEqual([
        'parameters',
      ]);
      expect(params({ ...minimal, parameters: { bird: { a: 1 }, 'first name': 'x' } })).toEqual([
        'parameters.bird',
        'parameters.first name',
      ]);
    });
  });

  describe('headers', () => {
    it('rejects reserved headers in any case', () => {
      const reserved = [
        'From',
        'to',
        'CC',
        'Bcc',
        'Reply-To',
        'Subject',
        'Content-Type',
        'content-transfer-encoding',
        'DKIM-Signature',
        'Received',
        'Return-Path',
        'Message-ID',
        'Date',
        'MIME-Version',
        'Sender',
        'Content-Disposition',
        'Authentication-Results',
        'ARC-Seal',
        'arc-message-signature',
        'ARC-Authentication-Results',
      ];
      for (const name of reserved)
        expect(params({ ...minimal, headers: { [name]: 'x' } })).toEqual([`headers.${name}`]);
    });

    it('rejects List-Unsubscribe on marketing sends only', () => {
      const headers = {
        'List-Unsubscribe': '<https://acme.com/u>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      };
      expect(params({ ...minimal, headers })).toEqual([
        'headers.List-Unsubscribe',
        'headers.List-Unsubscribe-Post',
      ]);
      expect(normalised({ ...minimal, category: 'transactional', headers }).headers).toEqual(
        headers,
      );
    });

    it('checks names, values, duplicates and the count', () => {
      expect(
        params({
          ...minimal,
          headers: {
            'X-Colon:': 'a',
            'X Space': 'a',
            'X-Ünicode': 'a',
            'X-Long': 'v'.repeat(999),
            'X-Number': 5,
            'X-Ok': 'v'.repeat(998),
            'x-ok': 'again',
            'X-Tab': 'a\tb',
          },
        }),
      ).toEqual([
        'headers.X-Colon:',
        'headers.X Space',
        'headers.X-Ünicode',
        'headers.X-Long',
        'headers.X-Number',
        'headers.x-ok',
      ]);
      const many = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`X-H${i}`, 'v']));
      expect(params({ ...minimal, headers: many })).toEqual(['headers']);
      delete many['X-H25'];
      expect(Object.keys(normalised({ ...minimal, headers: many }).headers)).toHaveLength(25);
      expect(params({ ...minimal, headers: ['X-A: b'] })).toEqual(['headers']);
    });

    it('refuses an empty value (nothing would be sent) and keeps a header named __proto__', () => {
      expect(params({ ...minimal, headers: { 'X-Empty': '', 'X-Blank': '   ' } })).toEqual([
        'headers.X-Empty',
        'headers.X-Blank',
      ]);
      const kept = normalised(
        JSON.parse(
          '{"from":"hello@acme.com","to":["jane@example.com"],"subject":"Hi","text":"Hi","headers":{"__proto__":"x","X-A":"b"}}',
        ),
      );
      expect(Object.entries(kept.headers)).toEqual([
        ['__proto__', 'x'],
        ['X-A', 'b'],
      ]);
    });
  });

  describe('attachments', () => {
    const pdf = { filename: 'invoice.pdf', content: Buffer.from('%PDF-1.4').toString('base64') };

    it("refuses multipart and message types, the mail's own structure; a saved email goes as a file", () => {
      const content = Buffer.from('A\rB\r\n').toString('base64');
      expect(
        params({
          ...minimal,
          attachments: [
            { filename: 'm.eml', content, content_type: 'message/rfc822' },
            { filename: 'x.bin', content, content_type: 'Multipart/Mixed; boundary="zzz"' },
          ],
        }),
      ).toEqual(['attachments[0].content_type', 'attachments[1].content_type']);
      const saved = normalised({ ...minimal, attachments: [{ filename: 'm.eml', content }] });
      expect(saved.attachments[0].content_type).toBe('application/octet-stream');
    });

    it('infers the content type from the extension and cleans the base64', () => {
      const content = 'SGVs\nbG8g\r\nd29y bGQ=';
      expect(
        normalised({
          ...minimal,
          attachments: [
            pdf,
            { filename: 'photo.JPG', content, content_id: '<logo@acme>' },
            { filename: 'data', content: '' },
            { filename: 'x.csv', content, content_type: 'Text/CSV; charset=utf-8' },
          ],
        }).attachments,
      ).toEqual([
        { filename: 'invoice.pdf', content: pdf.content, content_type: 'application/pdf' },
        {
          filename: 'photo.JPG',
          content: 'SGVsbG8gd29ybGQ=',
          content_type: 'image/jpeg',
          content_id: 'logo@acme',
        },
        { filename: 'data', content: '', content_type: 'application/octet-stream' },
        { filename: 'x.csv', content: 'SGVsbG8gd29ybGQ=', content_type: 'text/csv; charset=utf-8' },
      ]);
    });

    it.each([
      'run.exe',
      'RUN.EXE',
      'a.pdf.exe',
      'setup.msi',
      'x.bat',
      'x.cmd',
      'x.com',
      'x.js',
      'x.vbs',
      'x.scr',
      'x.jar',
      'x.sh',
      'x.ps1',
      'run.exe.',
      'run.exe  ',
    ])('rejects the executable %j', (filename) => {
      expect(params({ ...minimal, attachments: [{ ...pdf, filename }] })).toEqual([
        'attachments[0].filename',
      ]);
    });

    it.each([
      'application/x-msdownload',
      'application/x-sh',
      'Application/JavaScript; charset=utf-8',
      'application/java-archive',
    ])('rejects the executable type %j', (contentType) => {
      expect(params({ ...minimal, attachments: [{ ...pdf, content_type: contentType }] })).toEqual([
        'attachments[0].content_type',
      ]);
    });

    it('rejects bad base64, missing fields, unknown fields and duplicate content ids', () => {
      expect(
        params({
          ...minimal,
          attachments: [
            { filename: 'a.txt', content: 'abc' },
            { filename: 'b.txt', content: 'ab$=' },
            { filename: 'c.txt', content: 'YQ==YQ==' },
            { filename: 'd.txt', content: 'SGVsbG8-d29ybGQ_' },
            { content: 'YQ==' },
            { filename: 'e.txt' },
            { filename: 'f.txt', content: 'YQ==', size: 1 },
            { filename: 'g.png', content: 'YQ==', content_id: 'a' },
            { filename: 'h.png', content: 'YQ==', content_id: 'a' },
            { filename: 'i.png', content: 'YQ==', content_id: 'a b' },
            { filename: 'j.png', content: 'YQ==', content_type: 'image' },
            { filename: 'k\r\n.txt', content: 'YQ==' },
          ],
        }),
      ).toEqual([
        'attachments[0].content',
        'attachments[1].content',
        'attachments[2].content',
        'attachments[3].content',
        'attachments[4].filename',
        'attachments[5].content',
        'attachments[6].size',
        'attachments[8].content_id',
        'attachments[9].content_id',
        'attachments[10].content_type',
        'attachments[11].filename',
      ]);
    });

    it('takes 20 attachments and rejects 21', () => {
      expect(normalised({ ...minimal, attachments: Array(20).fill(pdf) }).attachments).toHaveLength(
        20,
      );
      expect(params({ ...minimal, attachments: Array(21).fill(pdf) })).toEqual(['attachments']);
    });
  });

  describe('size', () => {
    it('is 413 E01019 naming the message when the generated message would pass 20 MB', () => {
      const raw = Buffer.alloc(15 * 1024 * 1024 + 600_000, 1).toString('base64');
      const result = normaliseSendRequest(
        { ...minimal, attachments: [{ filename: 'big.bin', content: raw }] },
        options,
      );
      expect(problemsOf(result)).toEqual([
        expect.objectContaining({
          param: 'body',
          code: 'E01019',
          message: expect.stringContaining('20 MB'),
        }),
      ]);
      const error = sendProblemsError(problemsOf(result));
      expect(error.code).toBe('E01019');
      expect(error.status).toBe(413);
      expect(error.param).toBe('body');
      expect(error.message).toContain('20 MB');
      expect(error.details).toBeUndefined();
    });

    it('measures a send as its inline parameters will render it: size and subject', () => {
      // 25 KB of request that would render to 30 MB of text at processing.
      const big = { a: 'x'.repeat(15_000) };
      const inflated = normaliseSendRequest(
        { ...minimal, text: '{{a}}'.repeat(2000), html: undefined, parameters: big },
        options,
      );
      expect(problemsOf(inflated)).toEqual([expect.objectContaining({ code: 'E01019' })]);
      expect(
        params({ ...minimal, subject: '{{a}}{{ a }}', parameters: { a: 'y'.repeat(500) } }),
      ).toEqual(['subject']);
      expect(
        normalised({ ...minimal, subject: '{{a}}{{ a }}', parameters: { a: 'y'.repeat(499) } })
          .subject,
      ).toBe('{{a}}{{ a }}');
    });

    it('accepts 15 MB (decimal) of raw attachments with a body, as the SDK documents', () => {
      const raw = Buffer.alloc(15_000_000, 1).toString('base64');
      expect(
        normalised({
          ...minimal,
          html: 'x'.repeat(100_000),
          attachments: [{ filename: 'a.bin', content: raw }],
        }).attachments,
      ).toHaveLength(1);
    });

    it('estimates above the encoded size of bodies and attachments', () => {
      const request = normalised({
        ...minimal,
        text: 'y'.repeat(30_000),
        attachments: [{ filename: 'a.bin', content: Buffer.alloc(300_000).toString('base64') }],
      });
      const encoded = Math.ceil(300_000 / 3) * 4 + Math.ceil((9 + 30_000) / 3) * 4;
      expect(estimateGeneratedSize(request)).toBeGreaterThan(encoded * 1.02);
      expect(estimateGeneratedSize(request)).toBeLessThan(encoded * 1.1);
    });
  });

  describe('scheduled_at', () => {
    it.each([
      ['2030-01-01T12:00:30Z', '2030-01-01T12:00:30.000Z'],
      ['2030-01-01T13:00:30+01:00', '2030-01-01T12:00:30.000Z'],
      ['2030-01-30T12:00:00.5-0030', '2030-01-30T12:30:00.500Z'],
      ['2030-01-01T12:01Z', '2030-01-01T12:01:00.000Z'],
    ])('accepts %s as %s', (input, output) => {
      expect(normalised({ ...minimal, scheduled_at: input }).scheduled_at).toBe(output);
    });

    it.each([
      '2030-01-01T12:00:29Z',
      '2029-12-31T12:00:00Z',
      '2030-01-31T12:00:01Z',
      '2030-01-02T12:00:00',
      '2030-01-02',
      '2030-02-30T12:00:00Z',
      '2030-01-02T24:00:00Z',
      '2030-01-02T12:00:00+25:00',
      'tomorrow',
      1893499200000,
    ])('rejects %j', (input) => {
      expect(params({ ...minimal, scheduled_at: input })).toEqual(['scheduled_at']);
    });
  });

  describe('features this deployment lacks', () => {
    it('takes a template send without a subject or body, category inherited', () => {
      const request = normalised({
        from: minimal.from,
        to: minimal.to,
        template: { slug: 'welcome', language: 'pt-BR', parameters: { name: 'Ada' } },
      });
      expect(request.template).toEqual({
        slug: 'welcome',
        language: 'pt-BR',
        parameters: { name: 'Ada' },
        inherit_category: true,
      });
      expect(request.subject).toBe('');
    });

    it('keeps an explicit category on a template send', () => {
      expect(
        normalised({
          ...minimal,
          subject: undefined,
          html: undefined,
          category: 'transactional',
          template: { id: 'emt_1' },
        }).template?.inherit_category,
      ).toBe(false);
    });

    it.each([
      [{ slug: 'w', subject: 's' }, 'subject'],
      [{ slug: 'w', parameters: {} }, 'parameters'],
      [{ template: {} }, 'template'],
      [{ template: { id: 'emt_1', slug: 'w' } }, 'template.slug'],
      [{ template: { id: 'nope' } }, 'template.id'],
      [{ template: { slug: 'w', language: 'not a tag' } }, 'template.language'],
      [{ template: { slug: 'w', parameters: { bird: {} } } }, 'template.parameters.bird'],
      [
        { template: { slug: 'w', parameters: { 'two words': 1 } } },
        'template.parameters.two words',
      ],
      [{ template: { slug: 'w', extra: 1 } }, 'template.extra'],
      [{ template: 'welcome' }, 'template'],
    ])('rejects template send %j naming %s', (change, param) => {
      const { slug, ...rest } = change as { slug?: string };
      const body = {
        from: minimal.from,
        to: minimal.to,
        ...(slug ? { template: { slug } } : {}),
        ...rest,
      };
      expect(params(body)).toContain(param);
    });

    it('rejects template with scheduled_at as a validation error', () => {
      const list = problems({
        from: minimal.from,
        to: minimal.to,
        template: { slug: 'w' },
        scheduled_at: '2030-01-02T00:00:00Z',
      });
      expect(list.map((p) => [p.param, p.code])).toEqual([['scheduled_at', 'E01001']]);
    });

    it('takes ipp_shared and answers any other pool with E01017', () => {
      expect(normalised({ ...minimal, ip_pool_id: 'ipp_shared' }).ip_pool_id).toBe('ipp_shared');
      expect(problems({ ...minimal, ip_pool_id: 'ipp_dedicated1' })).toEqual([
        expect.objectContaining({ param: 'ip_pool_id', code: 'E01017' }),
      ]);
      expect(problems({ ...minimal, ip_pool_id: 5 })).toEqual([
        expect.objectContaining({ param: 'ip_pool_id', code: 'E01001' }),
      ]);
    });
  });

  it('lists every problem at once, unknown fields by name', () => {
    expect(
      params({
        from: 'nope',
        to: ['ok@example.com', 'bad'],
        subject: 'a\nb',
        html: 1,
        category: 'x',
        track_opens: 'yes',
        workspace_user_emails: ['me@acme.com'],
        extra: true,
      }),
    ).toEqual([
      'workspace_user_emails',
      'extra',
      'from',
      'to[1]',
      'subject',
      'html',
      'category',
      'track_opens',
    ]);
  });

  it('rejects what is not an object', () => {
    for (const input of [null, [], 'x', 1])
      expect(problems(input)).toEqual([expect.objectContaining({ param: 'body' })]);
  });
});

describe('normaliseBatchRequest', () => {
  it('normalises every message', () => {
    const result = normaliseBatchRequest(
      { messages: [minimal, { ...minimal, to: ['B <b@example.com>'] }] },
      options,
    );
    expect(result.ok && result.value.messages.map((m) => m.to)).toEqual([
      [{ email: 'jane@example.com' }],
      [{ email: 'b@example.com', name: 'B' }],
    ]);
  });

  it('checks every item and names each problem with its index', () => {
    const result = normaliseBatchRequest(
      {
        messages: [
          minimal,
          minimal,
          minimal,
          { ...minimal, from: 'bad' },
          { ...minimal, to: ['ok@example.com', 'nope'] },
          'x',
        ],
      },
      options,
    );
    expect(problemsOf(result).map((p) => p.param)).toEqual([
      'messages[3].from',
      'messages[4].to[1]',
      'messages[5]',
    ]);
  });

  it('takes 1 to 100 messages', () => {
    expect(normaliseBatchRequest({ messages: Array(100).fill(minimal) }, options).ok).toBe(true);
    for (const messages of [[], Array(101).fill(minimal), undefined, 'x', { 0: minimal }])
      expect(problemsOf(normaliseBatchRequest({ messages }, options)).map((p) => p.param)).toEqual([
        'messages',
      ]);
    expect(problemsOf(normaliseBatchRequest([minimal], options)).map((p) => p.param)).toEqual([
      'body',
    ]);
    expect(
      problemsOf(normaliseBatchRequest({ messages: [minimal], mode: 'x' }, options)).map(
        (p) => p.param,
      ),
    ).toEqual(['mode']);
  });

  it('names each message over the size limit with E01019', () => {
    const raw = Buffer.alloc(15 * 1024 * 1024 + 600_000, 1).toString('base64');
    const big = { ...minimal, attachments: [{ filename: 'big.bin', content: raw }] };
    const list = problemsOf(normaliseBatchRequest({ messages: [minimal, big] }, options));
    expect(list).toEqual([expect.objectContaining({ param: 'messages[1]', code: 'E01019' })]);
    const error = sendProblemsError(list);
    expect(error.param).toBe('messages[1]');
    expect(error.details).toBeUndefined();
  });

  it('reports validation before size when a batch has both', () => {
    const raw = Buffer.alloc(15 * 1024 * 1024 + 600_000, 1).toString('base64');
    const big = { ...minimal, attachments: [{ filename: 'big.bin', content: raw }] };
    const list = problemsOf(
      normaliseBatchRequest({ messages: [big, { ...minimal, from: 'x' }] }, options),
    );
    const error = sendProblemsError(list);
    expect(error.code).toBe('E01001');
    expect(error.details?.map((d) => d.param)).toEqual(['messages[0]', 'messages[1].from']);
  });
});

describe('sendProblemsError', () => {
  it(`lists at most ${SEND_LIMITS.reportedProblems} problems and counts the rest`, () => {
    const list: SendProblem[] = Array.from({ length: 250 }, (_, i) => ({
      param: `x${i}`,
      message: 'is not a known field',
      code: 'E01001',
    }));
    const error = sendProblemsError(list);
    expect(error).toBeInstanceOf(AppError);
    expect(error.details).toHaveLength(SEND_LIMITS.reportedProblems + 1);
    expect(error.details?.at(-1)).toEqual({ param: 'body', message: 'and 50 more problems' });
  });
});

// ---- properties ---------------------------------------------------------------------------------

const atext = fc.constantFrom(
  ..."abcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+/=?^_`{|}~-".split(''),
);
const localPart = fc
  .array(fc.string({ unit: atext, minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 3 })
  .map((parts) => parts.join('.'));
const label = fc
  .string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-'.split('')),
    minLength: 1,
    maxLength: 12,
  })
  .filter((l) => !l.startsWith('-') && !l.endsWith('-'));
const tld = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'.split('')),
  minLength: 2,
  maxLength: 6,
});
const validEmail = fc
  .tuple(localPart, fc.array(label, { minLength: 1, maxLength: 3 }), tld)
  .map(([local, labels, top]) => `${local}@${[...labels, top].join('.')}`);
/** Emails as a client might type them: any case, surrounding spaces. */
const typedEmail = fc
  .tuple(validEmail, fc.boolean(), fc.constantFrom('', ' ', '  '))
  .map(([email, upper, pad]) => `${pad}${upper ? email.toUpperCase() : email}${pad}`);
const displayName = fc
  .string({ minLength: 0, maxLength: 30 })
  .filter((n) => !/[\u0000-\u001f\u007f]/.test(n));
const addressInput: fc.Arbitrary<unknown> = fc.oneof(
  typedEmail,
  fc
    .tuple(displayName, typedEmail)
    .map(([name, email]) => `"${name.replace(/["\\]/g, (c) => `\\${c}`)}" <${email.trim()}>`),
  fc
    .tuple(
      displayName.filter((n) => !/["<>]/.test(n)),
      typedEmail,
    )
    .map(([name, email]) => `${name} <${email.trim()}>`),
  fc.record({ email: typedEmail }),
  fc.record({ email: typedEmail, name: displayName }),
);

describe('normaliser properties', () => {
  it('normalises any valid address list, and normalising the result changes nothing', () => {
    fc.assert(
      fc.property(fc.array(addressInput, { maxLength: 10 }), (inputs) => {
        const first = normaliseAddressList(inputs, 'to');
        expect(first.ok).toBe(true);
        if (!first.ok) return;
        for (const address of first.value) {
          expect(address.email).toBe(address.email.trim().toLowerCase());
          if (address.name !== undefined) expect(address.name).toBe(address.name.trim());
        }
        const second = normaliseAddressList(first.value, 'to');
        expect(second).toEqual(first);
        // The mailbox string form of the result reads back the same.
        const strings = first.value.map((a) =>
          a.name === undefined
            ? a.email
            : `"${a.name.replace(/["\\]/g, (c) => `\\${c}`)}" <${a.email}>`,
        );
        expect(normaliseAddressList(strings, 'to')).toEqual(first);
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('normalises a whole valid send idempotently', () => {
    fc.assert(
      fc.property(
        fc.array(addressInput, { minLength: 1, maxLength: 5 }),
        addressInput,
        (to, from) => {
          const once = normalised({ ...minimal, from, to });
          expect(normalised(once)).toEqual(once);
        },
      ),
      { seed: 11, numRuns: 200 },
    );
  });

  it('rejects any header value with CR or LF', () => {
    const withBreak = fc
      .tuple(
        fc.string({ maxLength: 20 }),
        fc.constantFrom('\r', '\n', '\r\n'),
        fc.string({ maxLength: 20 }),
      )
      .map(([a, brk, b]) => `${a}${brk}${b}`);
    fc.assert(
      fc.property(withBreak, (value) => {
        const list = problems({ ...minimal, headers: { 'X-Custom': value } });
        expect(list).toEqual([
          expect.objectContaining({ param: 'headers.X-Custom', code: 'E01001' }),
        ]);
      }),
      { seed: 3, numRuns: 300 },
    );
  });

  it('never throws on random JSON: always problems or a normalised request', () => {
    const field = fc.constantFrom(
      'from',
      'to',
      'cc',
      'bcc',
      'reply_to',
      'subject',
      'html',
      'text',
      'category',
      'tags',
      'metadata',
      'parameters',
      'headers',
      'attachments',
      'template',
      'track_opens',
      'track_clicks',
      'ip_pool_id',
      'scheduled_at',
      '__proto__',
      'constructor',
    );
    const json = fc.jsonValue({ maxDepth: 3 });
    const nearlyValid = fc
      .dictionary(field, json, { maxKeys: 6 })
      .map((overrides) => ({ ...minimal, ...overrides }));
    const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
    const hostileString = fc.string({ unit: anyCodeUnit, maxLength: 30 });
    const hostileFields = fc
      .dictionary(field, fc.oneof(hostileString, fc.array(hostileString, { maxLength: 3 })), {
        maxKeys: 4,
      })
      .map((overrides) => ({ ...minimal, ...overrides }));
    fc.assert(
      fc.property(fc.oneof(json, nearlyValid, hostileFields, fc.anything()), (input) => {
        for (const result of [
          normaliseSendRequest(input, options),
          normaliseBatchRequest({ messages: [input] }, options),
          normaliseBatchRequest(input, options),
        ]) {
          if (result.ok) expect(result.value).toBeDefined();
          else {
            expect(result.problems.length).toBeGreaterThan(0);
            for (const p of result.problems) {
              expect(typeof p.param).toBe('string');
              expect(typeof p.message).toBe('string');
            }
            expect(sendProblemsError(result.problems)).toBeInstanceOf(AppError);
          }
        }
      }),
      { seed: 42, numRuns: 1000 },
    );
  });
});
