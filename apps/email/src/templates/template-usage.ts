import type { SqlRunner } from '@switchboard/persistence';

/**
 * What else uses a template, asked before it is deleted. The broadcasts area implements it
 * (a `scheduled` or `accepted` broadcast that has not pinned its content yet blocks the delete
 * with `EmailTemplateInUse`) and provides it under `TEMPLATE_USAGE`; where nothing provides it,
 * nothing references templates, and a delete goes ahead.
 */
export interface TemplateUsage {
  /** Throws when the template may not be deleted; runs in the delete's transaction. */
  assertDeletable(runner: SqlRunner, workspaceId: string, templateId: string): Promise<void>;
}

export const TEMPLATE_USAGE = Symbol('TEMPLATE_USAGE');
