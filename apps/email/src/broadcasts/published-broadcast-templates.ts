import { Injectable } from '@nestjs/common';
import type { Contact } from '@switchboard/contracts';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError } from '@switchboard/platform';
import { PublishedTemplates, TemplateLanguageRequiredError } from '../templates';
import type { PinnedTemplate, TemplateVersionSnapshot } from '../templates';
import type { BroadcastTemplates, PinnedBroadcastTemplate } from './broadcast-templates';

/**
 * Broadcasts' view of the templates area (`PublishedTemplates`): a broadcast names no language,
 * so it is served the template's default; it has no parameters, only `bird.contact.*`.
 */
@Injectable()
export class PublishedBroadcastTemplates implements BroadcastTemplates {
  constructor(private readonly published: PublishedTemplates) {}

  async liveVersion(workspaceId: string, templateId: string): Promise<string | undefined> {
    try {
      return (await this.published.pin(workspaceId, { id: templateId, param: 'template' }))
        .versionId;
    } catch (err) {
      // Unknown, never published, or insisting on a language a broadcast cannot name.
      if (err instanceof AppError) return undefined;
      throw err;
    }
  }

  async noLiveVersionReason(workspaceId: string, templateId: string): Promise<string> {
    try {
      await this.published.pin(workspaceId, { id: templateId, param: 'template' });
    } catch (err) {
      if (err instanceof TemplateLanguageRequiredError)
        return `template ${templateId} requires every send to name a language (language_source_required), and a broadcast names none`;
      if (!(err instanceof AppError)) throw err;
    }
    return `template ${templateId} does not exist or has no published version`;
  }

  snapshot(
    workspaceId: string,
    templateId: string,
    versionId: string,
    runner: SqlRunner,
  ): Promise<object | undefined> {
    return this.published.snapshot(workspaceId, templateId, versionId, runner);
  }

  async pinned(
    workspaceId: string,
    templateId: string,
    versionId: string,
    snapshot: object | null,
  ): Promise<PinnedBroadcastTemplate | undefined> {
    let pinned: PinnedTemplate;
    try {
      pinned = snapshot
        ? await this.published.pinSnapshot(workspaceId, snapshot as TemplateVersionSnapshot, {
            param: 'template',
          })
        : await this.published.pinVersion(workspaceId, templateId, versionId, {
            param: 'template',
          });
    } catch (err) {
      if (err instanceof AppError) return undefined;
      throw err;
    }
    return {
      templateId,
      versionId,
      render: (contact) => {
        if (pinned.usesLoop)
          throw new Error('the template uses a loop, which a broadcast cannot fill');
        if (pinned.variables.length)
          throw new Error(
            `the template uses parameters a broadcast cannot give (${pinned.variables.join(', ')})`,
          );
        return pinned.render({ parameters: {}, contact: contactValues(contact) });
      },
    };
  }

  async sizes(
    workspaceId: string,
    templateId: string,
    versionId: string | null,
  ): Promise<{ html: number; text: number } | undefined> {
    const version = versionId ?? (await this.liveVersion(workspaceId, templateId));
    if (!version) return undefined;
    const pinned = await this.pinned(workspaceId, templateId, version, null);
    if (!pinned) return undefined;
    try {
      const rendered = pinned.render(EMPTY_CONTACT);
      return {
        html: rendered.html === null ? 0 : Buffer.byteLength(rendered.html),
        text: rendered.text === null ? 0 : Buffer.byteLength(rendered.text),
      };
    } catch {
      return undefined;
    }
  }
}

/** `bird.contact.*`: the contact's own attributes, then its fields (which win). */
export function contactValues(contact: Contact): Record<string, unknown> {
  return {
    ...contact.data,
    id: contact.id,
    email: contact.email,
    phone_number: contact.phone_number,
    first_name: contact.first_name,
    last_name: contact.last_name,
    external_id: contact.external_id,
  };
}

const EMPTY_CONTACT: Contact = {
  id: '',
  email: null,
  phone_number: null,
  first_name: null,
  last_name: null,
  external_id: null,
  data: {},
  created_at: '',
  updated_at: '',
};
