import { Inject, Injectable, Optional } from '@nestjs/common';
import { EmailErrors, EmailTemplateErrors } from '@switchboard/contracts';
import type { EmailSendRequest, RequestContext } from '@switchboard/contracts';
import type { ServiceClient } from '@switchboard/platform';
import { AppError } from '@switchboard/platform';
import {
  contactByEmail,
  joinTemplateErrors,
  propertiesOnce,
  PublishedTemplates,
  TemplateContactsClient,
} from '../../templates';
import type { PinnedTemplate, TemplatePinGuard } from '../../templates';
import type { TemplateOrigin } from './message-draft';
import {
  estimateGeneratedSize,
  SEND_LIMITS,
  sendProblemsError,
  unsubscribeHeaderProblems,
} from './send-request.normaliser';

export interface RenderedSends {
  requests: EmailSendRequest[];
  origins: Array<TemplateOrigin | undefined>;
  guards: Array<TemplatePinGuard | undefined>;
}

/**
 * Sends by template at accept time: each template's live version is pinned (one query for
 * every template a batch names, or none when each was read lately, guarded at insert; compiled
 * content comes from the cache) and rendered with the send's parameters, so what is stored and
 * delivered is fixed now and a later edit or publish never changes it. Any problem in any send
 * rejects the whole request with every detail.
 */
@Injectable()
export class TemplateSends {
  constructor(
    private readonly published: PublishedTemplates,
    @Optional() @Inject(TemplateContactsClient) private readonly contacts?: ServiceClient,
  ) {}

  /**
   * The requests with their content rendered, each one's template origin (undefined: none) and
   * the guard of its pin (undefined: none to check). `bird.contact.*` takes the contact of the
   * first `to` address, read only for a language that uses it (one request per distinct
   * address). `fresh`: pin by a query, never from the live versions last read; a problem with a
   * pin from those pins afresh, since the template may have changed meanwhile.
   */
  async render(
    context: RequestContext,
    workspaceId: string,
    requests: EmailSendRequest[],
    paramPrefix: (index: number) => string,
    fresh = false,
  ): Promise<RenderedSends> {
    const indexes = requests.flatMap((request, index) => (request.template ? [index] : []));
    if (indexes.length === 0) return { requests, origins: [], guards: [] };
    const pinned = await this.published.pinAll(
      workspaceId,
      indexes.map((index) => {
        const template = requests[index].template as NonNullable<EmailSendRequest['template']>;
        return {
          id: template.id,
          slug: template.slug,
          language: template.language,
          param: `${paramPrefix(index)}template`,
        };
      }),
      { recent: !fresh },
    );
    const recent = pinned.some((version) => version.guard);
    let contacts: Map<string, Record<string, unknown> | null>;
    try {
      contacts = await this.contactsOf(
        context,
        indexes.map((index, at) => [requests[index], pinned[at]]),
      );
    } catch (err) {
      // Read for the contact keys of a version that may no longer be live: ask again afresh.
      if (recent) return this.render(context, workspaceId, requests, paramPrefix, true);
      throw err;
    }
    const rendered = [...requests];
    const origins: Array<TemplateOrigin | undefined> = [];
    const guards: Array<TemplatePinGuard | undefined> = [];
    const errors: AppError[] = [];
    indexes.forEach((index, at) => {
      const request = requests[index];
      const template = request.template as NonNullable<EmailSendRequest['template']>;
      const version = pinned[at];
      try {
        const contact = contacts.get(request.to[0]?.email ?? '') ?? null;
        const content = version.render({ parameters: template.parameters ?? {}, contact });
        const next: EmailSendRequest = {
          ...request,
          subject: content.subject,
          category: template.inherit_category ? version.category : request.category,
        };
        const headerProblems = unsubscribeHeaderProblems(
          next.headers,
          next.category,
          paramPrefix(index),
        );
        if (headerProblems.length) throw sendProblemsError(headerProblems);
        // The subject is one header line: a parameter can make it longer than a line may be.
        const subjectLength = [...content.subject].length;
        if (subjectLength > SEND_LIMITS.subjectCharacters)
          throw new AppError(EmailTemplateErrors.TemplateLiquidInvalid, {
            details: [
              {
                param: `${paramPrefix(index)}template`,
                message: `the subject renders to ${subjectLength} characters; a subject is at most ${SEND_LIMITS.subjectCharacters}`,
              },
            ],
          });
        if (content.html !== null) next.html = content.html;
        if (content.text !== null) next.text = content.text;
        if (estimateGeneratedSize(next) > SEND_LIMITS.generatedBytes)
          throw new AppError(EmailErrors.EmailMessageTooLarge, {
            param: paramPrefix(index) ? `messages[${index}]` : 'body',
          });
        rendered[index] = next;
        origins[index] = {
          template_id: version.templateId,
          template_version_id: version.versionId,
          requested_language: version.requestedLanguage,
          resolved_language: version.language,
        };
        guards[index] = version.guard ?? undefined;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        errors.push(err);
      }
    });
    if (errors.length && recent)
      return this.render(context, workspaceId, requests, paramPrefix, true);
    if (errors.length) throw joinTemplateErrors(errors);
    return { requests: rendered, origins, guards };
  }

  private async contactsOf(
    context: RequestContext,
    sends: Array<[EmailSendRequest, PinnedTemplate]>,
  ): Promise<Map<string, Record<string, unknown> | null>> {
    const keysByEmail = new Map<string, Set<string>>();
    for (const [request, pinned] of sends) {
      const email = request.to[0]?.email;
      if (!pinned.contactKeys.length || !email) continue;
      const keys = keysByEmail.get(email) ?? new Set<string>();
      for (const key of pinned.contactKeys) keys.add(key);
      keysByEmail.set(email, keys);
    }
    const client = this.contacts;
    if (keysByEmail.size === 0 || !client) return new Map();
    const properties = propertiesOnce(client, context);
    return new Map(
      await Promise.all(
        [...keysByEmail].map(
          async ([email, keys]) =>
            [email, await contactByEmail(client, context, email, [...keys], properties)] as const,
        ),
      ),
    );
  }
}
