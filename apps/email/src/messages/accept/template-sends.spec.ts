import type { EmailSendRequest, RequestContext } from '@switchboard/contracts';
import type { ServiceClient } from '@switchboard/platform';
import type { PinnedTemplate, PublishedTemplates, TemplateRef } from '../../templates';
import { normaliseSendRequest } from './send-request.normaliser';
import { TemplateSends } from './template-sends';

const context: RequestContext = {
  requestId: 'req_1',
  workspaceId: 'ws_1',
  caller: { kind: 'api_key', id: 'key_1', role: 'admin' },
};

/** A pin of `versionId` rendering `subject`; `remembered` pins carry a guard, as from the cache. */
function pinOf(versionId: string, subject: string, contactKeys: string[], remembered: boolean) {
  return {
    templateId: 'emt_1',
    slug: 'welcome',
    category: 'transactional',
    versionId,
    versionNumber: 1,
    requestedLanguage: null,
    language: 'en',
    variables: [],
    contactKeys,
    usesLoop: false,
    render: () => ({ subject, html: `<p>${subject}</p>`, text: subject }),
    guard: remembered
      ? {
          workspace_id: 'ws_1',
          id: 'emt_1',
          slug: 'welcome',
          version_id: versionId,
          category: 'transactional',
          on_missing_language: 'fallback',
          language_source_required: false,
        }
      : null,
  } satisfies PinnedTemplate;
}

function request(): EmailSendRequest {
  const result = normaliseSendRequest(
    { from: 'hi@acme.test', to: ['ada@example.com'], template: { slug: 'welcome' } },
    { now: new Date() },
  );
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.value;
}

/**
 * The remembered live version may be stale: a failure met on its account (here, reading the
 * contact attributes its stale content uses) is never the answer; the send pins afresh.
 */
describe(TemplateSends.name, () => {
  const contactsDown = {
    send: () => Promise.reject(new Error('contacts unavailable')),
  } as unknown as ServiceClient;

  function sendsWith(pins: (recent: boolean) => PinnedTemplate) {
    const asked: boolean[] = [];
    const published = {
      pinAll: (_workspaceId: string, refs: TemplateRef[], options: { recent?: boolean } = {}) => {
        asked.push(options.recent === true);
        return Promise.resolve(refs.map(() => pins(options.recent === true)));
      },
    } as unknown as PublishedTemplates;
    return { sends: new TemplateSends(published, contactsDown), asked };
  }

  it('pins afresh when the contact read for a remembered version fails', async () => {
    const { sends, asked } = sendsWith((recent) =>
      recent
        ? pinOf('emv_old', 'Hi {{name}}', ['first_name'], true)
        : pinOf('emv_new', 'Hi', [], false),
    );
    const rendered = await sends.render(context, 'ws_1', [request()], () => '');
    expect(asked).toEqual([true, false]);
    expect(rendered.requests[0].subject).toBe('Hi');
    expect(rendered.origins[0]?.template_version_id).toBe('emv_new');
    expect(rendered.guards).toEqual([undefined]);
  });

  it('answers the failure of a contact read for a version pinned by a query', async () => {
    const { sends, asked } = sendsWith((recent) =>
      pinOf(recent ? 'emv_old' : 'emv_new', 'Hi', ['first_name'], recent),
    );
    await expect(sends.render(context, 'ws_1', [request()], () => '')).rejects.toThrow(
      'contacts unavailable',
    );
    expect(asked).toEqual([true, false]);
  });

  it('keeps the guard of a remembered pin that renders', async () => {
    const { sends, asked } = sendsWith(() => pinOf('emv_1', 'Hi', [], true));
    const rendered = await sends.render(context, 'ws_1', [request()], () => '');
    expect(asked).toEqual([true]);
    expect(rendered.guards[0]).toMatchObject({ version_id: 'emv_1' });
  });
});
