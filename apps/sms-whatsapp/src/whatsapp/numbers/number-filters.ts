import type { ListWhatsAppNumbersRequest } from '@switchboard/contracts';
import { SqlFilter } from '../../database/sql-filter';
import { internationalNumber } from '../../numbers/number-spelling';

/**
 * The SDK's `whatsapp.numbers.list` filters over `n` (the number) and `a` (its account), scoped
 * to the workspace. Per the SDK none of them is refused: an unknown WABA, a phone number the
 * workspace cannot send from, an unknown status and `scope=system` (this platform operates no
 * numbers itself) each match nothing. Answers the filter and what its cursors are bound to.
 */
export function numberFilters(
  workspaceId: string,
  input: ListWhatsAppNumbersRequest,
): { filter: SqlFilter; bound: Record<string, unknown> } {
  const filter = new SqlFilter('n.workspace_id = $1', [workspaceId]);
  if (input.waba !== undefined) filter.add('a.waba = $?', input.waba);
  // A value that cannot be normalised is matched exactly as given.
  const phone =
    input.phone_number === undefined
      ? undefined
      : (internationalNumber(input.phone_number) ?? input.phone_number);
  if (phone !== undefined) filter.add('n.phone_number = $?', phone);
  const statuses = input.status && [...new Set(input.status)].sort();
  if (statuses?.length) filter.add('n.status = ANY($?::text[])', statuses);
  // Every number here is one the workspace connected: its scope is `workspace`.
  if (input.scope !== undefined) filter.add("$?::text = 'workspace'", input.scope);
  return {
    filter,
    bound: { workspaceId, waba: input.waba, phone, statuses, scope: input.scope ?? null },
  };
}
