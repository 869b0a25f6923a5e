import type { MetaMessagesValue, MetaStatus, MetaWebhookPayload } from './meta-webhook';

/** One change of one inbox row, sorted by what applies it. */
export type WebhookChange =
  | {
      kind: 'messages';
      rowId: string;
      wabaId: string;
      phoneNumberId: string;
      value: MetaMessagesValue;
    }
  | { kind: 'template_status'; rowId: string; wabaId: string; value: Record<string, unknown> }
  | { kind: 'quality'; rowId: string; wabaId: string; value: Record<string, unknown> }
  | { kind: 'account'; rowId: string; wabaId: string; value: Record<string, unknown> };

/** The changes of a batch of inbox rows in row order, and what was ignored per row (why). */
export interface ReadWebhooks {
  changes: WebhookChange[];
  notes: Map<string, string[]>;
}

const KINDS: Record<string, WebhookChange['kind'] | undefined> = {
  messages: 'messages',
  message_template_status_update: 'template_status',
  phone_number_quality_update: 'quality',
  account_update: 'account',
};

/**
 * Reads recorded payloads into the changes the platform applies. Whatever is not one of them
 * (another `object`, a field the platform does not subscribe to, a change without its number)
 * is noted against its row and skipped, never retried: Meta will not send it differently.
 */
export function readWebhooks(rows: ReadonlyArray<{ id: string; body: string }>): ReadWebhooks {
  const changes: WebhookChange[] = [];
  const notes = new Map<string, string[]>();
  const note = (rowId: string, text: string) =>
    notes.set(rowId, [...(notes.get(rowId) ?? []), text]);
  for (const row of rows) {
    const payload = parse(row.body);
    if (!payload) {
      note(row.id, 'not a JSON object');
      continue;
    }
    if (payload.object !== 'whatsapp_business_account') {
      note(
        row.id,
        `object ${JSON.stringify(payload.object)} is not whatsapp_business_account; ignored`,
      );
      continue;
    }
    if (!Array.isArray(payload.entry)) {
      note(row.id, 'no entry list');
      continue;
    }
    for (const entry of payload.entry as unknown[]) {
      if (!isObject(entry) || typeof entry.id !== 'string' || !Array.isArray(entry.changes)) {
        note(row.id, 'an entry without id or changes; ignored');
        continue;
      }
      for (const change of entry.changes as unknown[]) {
        const kind =
          isObject(change) && typeof change.field === 'string' ? KINDS[change.field] : undefined;
        if (!kind || !isObject(change) || !isObject(change.value)) {
          note(
            row.id,
            `field ${JSON.stringify(isObject(change) ? change.field : undefined)} ignored`,
          );
          continue;
        }
        const value = change.value;
        if (kind !== 'messages') {
          changes.push({ kind, rowId: row.id, wabaId: entry.id, value });
          continue;
        }
        const metadata = value.metadata;
        if (!isObject(metadata) || typeof metadata.phone_number_id !== 'string') {
          note(row.id, 'a messages change without metadata.phone_number_id; ignored');
          continue;
        }
        // Meta reports failures of its own (not of one message) here: kept for the operator.
        if (Array.isArray(value.errors) && value.errors.length > 0)
          note(row.id, `Meta reported errors: ${JSON.stringify(value.errors).slice(0, 500)}`);
        changes.push({
          kind,
          rowId: row.id,
          wabaId: entry.id,
          phoneNumberId: metadata.phone_number_id,
          value: {
            ...(value as unknown as MetaMessagesValue),
            statuses: statusesOf(value.statuses),
          },
        });
      }
    }
  }
  return { changes, notes };
}

/** The statuses that name a wamid and a status; others cannot be matched to anything. */
function statusesOf(value: unknown): MetaStatus[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return (value as unknown[]).filter(
    (status): status is MetaStatus =>
      isObject(status) &&
      typeof status.id === 'string' &&
      typeof status.status === 'string' &&
      typeof status.timestamp === 'string',
  );
}

function parse(body: string): (Partial<MetaWebhookPayload> & Record<string, unknown>) | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
