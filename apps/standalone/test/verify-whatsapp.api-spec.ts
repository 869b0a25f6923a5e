import { BirdClient } from '@messagebird/sdk';
import { createWorkspace, startGraphStandIn } from '@switchboard/testing';
import type { CreatedWorkspace, GraphStandIn } from '@switchboard/testing';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';
import { seedNumber, seedTemplate } from './whatsapp-messages.fixtures';
import type { SeededNumber } from './whatsapp-messages.fixtures';

async function eventually<T>(read: () => T, done: (value: T) => boolean, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface GraphTemplateSend {
  to: string;
  template: {
    name: string;
    language: { code: string };
    components: Array<{ type: string; parameters: Array<{ text?: string }> }>;
  };
}

/**
 * Verify over WhatsApp on the embedded default with the official SDK: the passcode goes out as
 * the workspace's approved authentication template, through the WhatsApp messages service, to a
 * Graph stand-in (a real HTTP server speaking Meta's API).
 */
describe('Verify over WhatsApp', () => {
  let platform: TestPlatform;
  let graph: GraphStandIn;
  let acme: CreatedWorkspace;
  let bird: BirdClient;
  let sender: SeededNumber;

  const sendsTo = (to: string) =>
    graph
      .sentFrom(sender.phoneNumberId)
      .map((sent) => sent.body as unknown as GraphTemplateSend)
      .filter((body) => body.to.replace(/\D/g, '') === to.slice(1));

  beforeAll(async () => {
    graph = await startGraphStandIn();
    platform = await startTestPlatform({
      RATE_LIMITS: 'off',
      WHATSAPP_GRAPH_URL: graph.url,
      WHATSAPP_ACCESS_TOKEN: graph.accessToken,
      WHATSAPP_APP_SECRET: 'verify-whatsapp-app-secret',
    });
    acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    sender = await seedNumber(platform.db, acme.workspace.id, { phoneNumber: '+31612340000' });
    graph.addAccount({ wabaId: sender.waba });
    graph.addNumber({
      phoneNumberId: sender.phoneNumberId,
      wabaId: sender.waba,
      displayPhoneNumber: sender.phoneNumber,
    });
    await seedTemplate(platform.db, acme.workspace.id, sender, {
      slug: 'login_code',
      category: 'authentication',
      language: 'en',
      components: [
        { type: 'BODY', text: '*{{1}}* is your verification code.' },
        { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    await graph?.stop();
  });

  it('sends the approved authentication template with the code in the body and the button, and the code verifies', async () => {
    const to = '+31655550101';
    const created = await bird.verify.verifications.create({
      to: { phone_number: to },
      options: { channels: ['whatsapp'] },
    });
    expect(created.channels).toEqual([{ channel: 'whatsapp' }]);
    const [sent] = await eventually(
      () => sendsTo(to),
      (sends) => sends.length > 0,
    );
    expect(sent.template).toMatchObject({ name: 'login_code', language: { code: 'en' } });
    const code = sent.template.components[0].parameters[0].text as string;
    expect(code).toMatch(/^\d{6}$/);
    expect(sent.template.components[1]).toMatchObject({
      type: 'button',
      parameters: [{ text: code }],
    });
    const result = await bird.verify.verifications.check({ to: { phone_number: to }, code });
    expect(result).toMatchObject({
      success: true,
      verification: { status: 'verified', last_channel: 'whatsapp' },
    });
  });

  it('moves from SMS, which has no carrier here, to WhatsApp on the same create', async () => {
    const to = '+31655550102';
    await bird.verify.verifications.create({ to: { phone_number: to } });
    const [sent] = await eventually(
      () => sendsTo(to),
      (sends) => sends.length > 0,
    );
    const code = sent.template.components[0].parameters[0].text as string;
    const result = await bird.verify.verifications.check({ to: { phone_number: to }, code });
    expect(result.success).toBe(true);
    expect(result.verification.last_channel).toBe('whatsapp');
  });

  it('fails undeliverable when no channel of the plan can send: a check then finds nothing in progress', async () => {
    const bare = await createWorkspace(platform.base, platform.adminToken, { name: 'Bare' });
    const plain = new BirdClient({
      apiKey: bare.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
    const to = '+31655550103';
    const created = await plain.verify.verifications.create({ to: { phone_number: to } });
    expect(created.status).toBe('pending');
    // No GET of a verification in the API: its row says how it ended.
    const statusOf = async () =>
      (
        await platform.db.query<{ status: string; reason: string }>(
          'SELECT status, reason FROM verify_lookup_preferences.verifications WHERE id = $1',
          [created.id],
        )
      ).rows[0];
    let failed = await statusOf();
    for (const until = Date.now() + 20_000; failed.status === 'pending' && Date.now() < until;)
      failed = await new Promise((resolve) => setTimeout(resolve, 50)).then(statusOf);
    expect(failed).toEqual({ status: 'failed', reason: 'undeliverable' });
    await expect(
      plain.verify.verifications.check({ to: { phone_number: to }, code: '123456' }),
    ).rejects.toMatchObject({ name: expect.stringContaining('NotFound') });
    expect(sendsTo(to)).toHaveLength(0);
  });
});
