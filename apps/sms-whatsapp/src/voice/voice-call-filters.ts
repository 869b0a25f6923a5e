import { parseTimestamp, VOICE_CALL_FINAL_STATUSES } from '@switchboard/contracts';
import type { ErrorDetail, ListVoiceCallsRequest } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { SqlFilter } from '../database/sql-filter';
import { internationalNumber } from '../numbers/number-spelling';

const TAG_PART = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The SQL of the call list's filters for one workspace, every problem collected into one 422.
 * Without `status` the list holds ended calls only, as the SDK's list always has.
 */
export function voiceCallFilters(
  workspaceId: string,
  input: ListVoiceCallsRequest,
): { filter: SqlFilter; bound: Record<string, unknown> } {
  const problems: ErrorDetail[] = [];
  const filter = new SqlFilter('workspace_id = $1', [workspaceId]);
  if (input.direction) filter.add('direction = $?', input.direction);
  const statuses = input.status?.length ? input.status : [...VOICE_CALL_FINAL_STATUSES];
  filter.add('status = ANY($?::text[])', [...new Set(statuses)].sort());
  if (input.session_id) filter.add('session_id = $?', input.session_id);
  if (input.sip_trunk_id) filter.add('sip_trunk_id = $?', input.sip_trunk_id);
  for (const side of ['from', 'to'] as const) {
    const value = input[side];
    if (value === undefined) continue;
    const number = internationalNumber(value);
    if (number) filter.add(`${side}_number = $?`, number);
    else problems.push({ param: side, message: 'must be a whole number in international form' });
  }
  if (input.number !== undefined) {
    const digits = input.number.replace(/[\s().\-/+]/g, '');
    if (/^\d{1,15}$/.test(digits))
      filter.add('(from_number LIKE $? OR to_number LIKE $?)', `%${digits}%`);
    else problems.push({ param: 'number', message: 'must be digits of a number' });
  }
  for (const tag of input.tag ?? []) {
    const [name, ...rest] = tag.split(':');
    const value = rest.length ? rest.join(':') : undefined;
    if (!TAG_PART.test(name) || name.length > 32 || (value !== undefined && !TAG_PART.test(value)))
      problems.push({ param: 'tag', message: `"${tag}" is not name or name:value` });
    else
      filter.add(
        'tags @> $?::jsonb',
        JSON.stringify([value === undefined ? { name } : { name, value }]),
      );
  }
  const bounds: Record<string, string | null> = {};
  for (const [param, operator] of [
    ['started_after', '>='],
    ['started_before', '<='],
  ] as const) {
    const value = input[param];
    bounds[param] = null;
    if (value === undefined) continue;
    const parsed = parseTimestamp(value);
    if (!parsed)
      problems.push({ param, message: 'must be an RFC 3339 date-time with a time zone' });
    else {
      bounds[param] = parsed.toISOString();
      filter.add(`started_at ${operator} $?::timestamptz`, bounds[param]);
    }
  }
  if (problems.length) throw AppError.validation(problems);
  return {
    filter,
    bound: {
      workspaceId,
      direction: input.direction ?? null,
      status: [...new Set(statuses)].sort(),
      session_id: input.session_id ?? null,
      sip_trunk_id: input.sip_trunk_id ?? null,
      from: input.from ?? null,
      to: input.to ?? null,
      number: input.number ?? null,
      tag: input.tag ?? [],
      ...bounds,
    },
  };
}
