import type { Contact } from '@switchboard/contracts';
import type { SqlRunner } from '@switchboard/persistence';

/** One recipient's rendered copy of a broadcast's pinned template version. */
export interface RenderedBroadcastContent {
  subject: string;
  html: string | null;
  text: string | null;
}

/** A template version a broadcast is pinned to, ready to render per recipient. */
export interface PinnedBroadcastTemplate {
  templateId: string;
  versionId: string;
  /** Renders the version for one contact (`bird.contact.*`); throws when it cannot. */
  render(contact: Contact): RenderedBroadcastContent;
}

/**
 * What broadcasts need of email templates (owned by the templates area): whether a template has
 * a live version, the version to pin, and its sizes. Provided under `BROADCAST_TEMPLATES`.
 */
export interface BroadcastTemplates {
  /** The live version's id, or undefined when the template is unknown or has none published. */
  liveVersion(
    workspaceId: string,
    templateId: string,
    runner?: SqlRunner,
  ): Promise<string | undefined>;
  /** Why `liveVersion` found none: unknown, never published, or insisting on a language. */
  noLiveVersionReason(workspaceId: string, templateId: string): Promise<string>;
  /**
   * What pinning the version reads, as JSON a broadcast keeps from the moment it pins it, so
   * the template can be deleted while its messages are still being prepared.
   */
  snapshot(
    workspaceId: string,
    templateId: string,
    versionId: string,
    runner: SqlRunner,
  ): Promise<object | undefined>;
  /**
   * The pinned version, ready to render, from its `snapshot` when the broadcast kept one (else
   * from the version itself); undefined when it can no longer be read.
   */
  pinned(
    workspaceId: string,
    templateId: string,
    versionId: string,
    snapshot: object | null,
  ): Promise<PinnedBroadcastTemplate | undefined>;
  /** The HTML and text sizes of a version, for a single read; undefined when unreadable. */
  sizes(
    workspaceId: string,
    templateId: string,
    versionId: string | null,
  ): Promise<{ html: number; text: number } | undefined>;
}

export const BROADCAST_TEMPLATES = Symbol('BROADCAST_TEMPLATES');
