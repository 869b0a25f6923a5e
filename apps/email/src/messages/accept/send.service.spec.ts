import type { EmailSendInput, RequestContext } from '@switchboard/contracts';
import { SealedBox } from '@switchboard/platform';
import type { DataSource } from 'typeorm';
import type { EmailConfig } from '../../config/email.config';
import type { SenderDomain, SendingDomainsService } from '../../domains';
import type { AcceptRepository } from './accept.repository';
import { SendService } from './send.service';
import type { TemplateSends } from './template-sends';

const context: RequestContext = {
  requestId: 'req_1',
  workspaceId: 'ws_1',
  caller: { kind: 'api_key', id: 'key_1', role: 'admin' },
};

const sendFrom = (from: string): EmailSendInput => ({
  body: { from, to: ['someone@example.com'], subject: 's', text: 't' },
});

/**
 * The sender rules run before anything is written, so a refused send never reaches PostgreSQL:
 * the domains service here answers from memory and counts its lookups.
 */
describe('SendService sender lookups', () => {
  function serviceWith(answer: () => Promise<Map<string, SenderDomain>>) {
    const lookups: string[][] = [];
    const domains = {
      sendersFor: (_workspaceId: string, names: string[]) => {
        lookups.push(names);
        return answer();
      },
    } as unknown as SendingDomainsService;
    const config = { EMAIL_ONBOARDING_DOMAIN: 'onboarding.localhost' } as EmailConfig;
    const box = new SealedBox('an encryption key for tests');
    return {
      service: new SendService(
        config,
        {} as DataSource,
        domains,
        box,
        {} as AcceptRepository,
        {} as TemplateSends,
      ),
      lookups,
    };
  }

  it('shares one lookup among the sends that miss the sender cache while it runs', async () => {
    let release!: () => void;
    const pending = new Promise<void>((resolve) => (release = resolve));
    const { service, lookups } = serviceWith(async () => {
      await pending;
      return new Map([
        [
          'news.acme.com',
          {
            id: 'dom_1',
            domain: 'news.acme.com',
            status: 'pending',
            verified: false,
          } as SenderDomain,
        ],
      ]);
    });
    const sends = Array.from({ length: 20 }, () =>
      service.send(context, sendFrom('hello@news.acme.com')),
    );
    release();
    const outcomes = await Promise.allSettled(sends);
    expect(lookups).toEqual([['news.acme.com']]);
    for (const outcome of outcomes)
      expect(outcome).toMatchObject({ status: 'rejected', reason: { code: 'E01016' } });
    // An unverified sender is not remembered: the next send asks again.
    await expect(service.send(context, sendFrom('hello@news.acme.com'))).rejects.toMatchObject({
      code: 'E01016',
    });
    expect(lookups).toHaveLength(2);
  });

  it('a failed lookup fails the sends that shared it, and the next send looks up afresh', async () => {
    let calls = 0;
    const { service, lookups } = serviceWith(() => {
      calls += 1;
      if (calls === 1) return Promise.reject(new Error('connection terminated'));
      return Promise.resolve(new Map());
    });
    const shared = await Promise.allSettled([
      service.send(context, sendFrom('a@other.example')),
      service.send(context, sendFrom('b@other.example')),
    ]);
    expect(shared.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    await expect(service.send(context, sendFrom('c@other.example'))).rejects.toMatchObject({
      code: 'E01016',
    });
    expect(lookups).toHaveLength(2);
  });

  it("checks a send's values first: every problem in one 422, and no sender lookup", async () => {
    const { service, lookups } = serviceWith(() => Promise.resolve(new Map()));
    await expect(
      service.send(context, { body: { from: 'not an address', to: [], subject: 's' } }),
    ).rejects.toMatchObject({
      code: 'E01001',
      details: [
        { param: 'from', message: 'must not contain spaces, line breaks or control characters' },
        { param: 'to', message: 'must list at least one recipient' },
        { param: 'html', message: 'html or text is required (a non-empty body)' },
      ],
    });
    await expect(
      service.sendBatch(context, { body: { messages: [sendFrom('a@b.example').body, {}] } }),
    ).rejects.toMatchObject({
      code: 'E01001',
      details: expect.arrayContaining([{ param: 'messages[1].from', message: 'is required' }]),
    });
    expect(lookups).toEqual([]);
  });
});
