import { ContactErrors, ContactSubjects } from '@switchboard/contracts';
import type { AudienceSnapshotPage, Contact, RequestContext } from '@switchboard/contracts';
import type { ServiceClient } from '@switchboard/platform';

/** Rows per snapshot page: one RPC and one insert statement each. */
export const SNAPSHOT_PAGE_ROWS = 1000;

export const AUDIENCE_SNAPSHOTS = Symbol('AUDIENCE_SNAPSHOTS');

/** Contact properties read for fallbacks: at most this many pages of 100 (as previews read). */
const PROPERTY_PAGES = 5;

/**
 * A broadcast's view of its audience, through the workspace-objects service's typed contract:
 * whether it exists, and its members a keyset page at a time.
 */
export class AudienceSnapshots {
  constructor(private readonly services: ServiceClient) {}

  /** False when the audience is not one of the workspace's. */
  async exists(context: RequestContext, audienceId: string): Promise<boolean> {
    try {
      await this.services.send(ContactSubjects.GetAudience, { audience_id: audienceId }, context);
      return true;
    } catch (err) {
      if ((err as { code?: string }).code === ContactErrors.AudienceNotFound) return false;
      throw err;
    }
  }

  page(
    context: RequestContext,
    audienceId: string,
    page: { after?: string; joinedBefore?: Date; withFields: boolean; limit?: number },
  ): Promise<AudienceSnapshotPage> {
    return this.services.send(
      ContactSubjects.SnapshotMembers,
      {
        audience_id: audienceId,
        limit: page.limit ?? SNAPSHOT_PAGE_ROWS,
        with_fields: page.withFields,
        ...(page.after ? { after: page.after } : {}),
        ...(page.joinedBefore ? { joined_before: page.joinedBefore.toISOString() } : {}),
      },
      context,
    );
  }

  /**
   * What templates read of the workspace's contact properties (at most 500 read): each one's
   * `fallback_value` (those that have one), by key, and the archived ones, which stop rendering.
   */
  async properties(context: RequestContext): Promise<PropertyRendering> {
    const rendering: PropertyRendering = { fallbacks: new Map(), archived: new Set() };
    let cursor: string | undefined;
    for (let page = 0; page < PROPERTY_PAGES; page++) {
      const properties = await this.services.send(
        ContactSubjects.ListProperties,
        { limit: 100, ...(cursor ? { starting_after: cursor } : {}) },
        context,
      );
      for (const property of properties.data)
        if (property.archived) rendering.archived.add(property.key);
        else if (property.fallback_value != null)
          rendering.fallbacks.set(property.key, property.fallback_value);
      if (!properties.next_cursor) break;
      cursor = properties.next_cursor;
    }
    return rendering;
  }

  /** Every member's address (null: the contact has none), a page at a time. */
  async *addresses(
    context: RequestContext,
    audienceId: string,
  ): AsyncGenerator<Array<string | null>> {
    let after: string | undefined;
    do {
      const page = await this.page(context, audienceId, {
        after,
        withFields: false,
        limit: 5000,
      });
      yield page.data.map((member) => member.email);
      after = page.next ?? undefined;
    } while (after);
  }
}

/** The context a worker asks other services with, for one workspace. */
export function workerContext(workspaceId: string, requestId: string): RequestContext {
  return { requestId, workspaceId, caller: { kind: 'operator' } };
}

/** How contact properties render: fallbacks by key, and the archived keys (which render empty). */
export interface PropertyRendering {
  fallbacks: Map<string, unknown>;
  archived: Set<string>;
}

/**
 * The contact as a template renders it: an archived property's value dropped, and each
 * property it holds no value for set to the property's fallback.
 */
export function contactForTemplates(contact: Contact, properties: PropertyRendering): Contact {
  if (properties.fallbacks.size === 0 && properties.archived.size === 0) return contact;
  const data = { ...contact.data };
  for (const key of properties.archived) delete data[key];
  for (const [key, value] of properties.fallbacks)
    if (data[key] === undefined || data[key] === null) data[key] = value;
  return { ...contact, data };
}
