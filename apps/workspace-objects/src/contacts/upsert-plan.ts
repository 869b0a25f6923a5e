import { CommonErrors, ContactErrors, ErrorCatalog } from '@switchboard/contracts';
import type { ContactMatchKey, ContactUpsertResultItem, ErrorCode } from '@switchboard/contracts';
import { contactWrite } from './contact.mapper';
import { dataProblem, IDENTIFIER_TAKEN, IDENTIFIERS, mergedData } from './contact-input';
import type { Identifier, ReadContact } from './contact-input';
import type { ContactRow, ContactWrite } from './contacts.repository';

export interface UpsertPlan {
  /** One per entry, in submission order. */
  results: ContactUpsertResultItem[];
  inserts: ContactWrite[];
  updates: ContactWrite[];
}

export interface UpsertOptions {
  matchOn?: ContactMatchKey;
  replaceData: boolean;
  newId: () => string;
}

/**
 * Decides every entry of a batch against the contacts that hold its identifiers (read and
 * locked beforehand), in submission order, as if the entries were applied one by one: an entry
 * may update a contact an earlier one created. The result is the final state of each touched
 * contact, written by the caller in one INSERT and one UPDATE. A failed entry changes nothing.
 */
export function planUpsert(
  workspaceId: string,
  entries: readonly ReadContact[],
  existing: readonly ContactRow[],
  options: UpsertOptions,
): UpsertPlan {
  const contacts = new Map<string, { row: ContactWrite; isNew: boolean; touched: boolean }>();
  const owners: Record<Identifier, Map<string, string>> = {
    email: new Map(),
    phone_number: new Map(),
    external_id: new Map(),
  };
  const own = (row: ContactWrite) => {
    for (const key of IDENTIFIERS) if (row[key] !== null) owners[key].set(row[key], row.id);
  };
  for (const row of existing) {
    const write = contactWrite(row);
    contacts.set(row.id, { row: write, isNew: false, touched: false });
    own(write);
  }

  const results = entries.map((entry): ContactUpsertResultItem => {
    const base = { entry: entry.echo, matched_on: null };
    const failed = (code: ErrorCode, message: string): ContactUpsertResultItem => ({
      ...base,
      status: 'failed',
      error: { type: ErrorCatalog[code].type, code, message },
    });
    if (entry.problems.length > 0)
      return failed(
        CommonErrors.ValidationError,
        entry.problems
          .map((p) => `${p.param.replace(/^contacts\[\d+\]\./, '')} ${p.message}`)
          .join('; '),
      );
    const { input } = entry;
    const given = IDENTIFIERS.filter((key) => typeof input[key] === 'string');
    if (options.matchOn && !given.includes(options.matchOn))
      return failed(
        CommonErrors.ValidationError,
        `match_on is ${options.matchOn}: every entry needs one`,
      );
    const keys = options.matchOn ? [options.matchOn] : given;
    const matches = new Map<string, Identifier>();
    for (const key of keys) {
      const owner = owners[key].get(input[key] as string);
      if (owner && !matches.has(owner)) matches.set(owner, key);
    }
    if (matches.size > 1)
      return failed(
        ContactErrors.ContactAmbiguousMatch,
        `the entry matches ${[...matches].map(([id, key]) => `${id} (by ${key})`).join(' and ')}`,
      );
    const [target] = [...matches.keys()];
    for (const key of given) {
      const owner = owners[key].get(input[key] as string);
      if (owner && owner !== target)
        return failed(IDENTIFIER_TAKEN[key], `the ${key} belongs to another contact (${owner})`);
    }
    const current = target ? contacts.get(target) : undefined;
    if (!current && input.email == null && input.phone_number == null)
      return failed(CommonErrors.ValidationError, 'a new contact needs an email or a phone_number');
    const stored = current?.row;
    const data = mergedData(stored?.data ?? {}, input.data, options.replaceData && !!stored);
    const tooBig = dataProblem(data);
    if (tooBig) return failed(CommonErrors.ValidationError, `data ${tooBig.message}`);
    const row: ContactWrite = {
      id: stored?.id ?? options.newId(),
      workspace_id: workspaceId,
      email: input.email ?? stored?.email ?? null,
      phone_number: input.phone_number ?? stored?.phone_number ?? null,
      external_id: input.external_id ?? stored?.external_id ?? null,
      first_name: input.first_name ?? stored?.first_name ?? null,
      last_name: input.last_name ?? stored?.last_name ?? null,
      data,
    };
    if (stored)
      for (const key of IDENTIFIERS)
        if (stored[key] !== null && stored[key] !== row[key]) owners[key].delete(stored[key]);
    own(row);
    contacts.set(row.id, { row, isNew: current?.isNew ?? true, touched: true });
    return {
      ...base,
      matched_on: target ? (matches.get(target) ?? null) : null,
      status: target ? 'updated' : 'created',
      contact_id: row.id,
    };
  });

  const touched = [...contacts.values()].filter((contact) => contact.touched);
  return {
    results,
    inserts: touched.filter((contact) => contact.isNew).map((contact) => contact.row),
    updates: touched.filter((contact) => !contact.isNew).map((contact) => contact.row),
  };
}
