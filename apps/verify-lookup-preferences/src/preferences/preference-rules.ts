import { PreferenceErrors } from '@switchboard/contracts';
import { isOwnStatement, isRepeat } from './preference-statement';
import type { PreferenceRow, PreferenceState } from './preferences.repository';

/**
 * What the ledger does with a statement, given the key's row: `insert` (no row yet), `replace`
 * (apply it), `repeat` (it says what the row says), `restate` (the person says it again, later:
 * the row takes the later statement, with no change to announce), `older` (refused: it predates
 * the row), or `forbidden` (a rule refuses it outright, with the code the API answers).
 */
export type Verdict =
  | { kind: 'insert' }
  | { kind: 'replace' }
  | { kind: 'repeat' }
  | { kind: 'restate' }
  | { kind: 'older' }
  | { kind: 'forbidden'; code: typeof PreferenceErrors.PreferenceOwnOptOut }
  | { kind: 'forbidden'; code: typeof PreferenceErrors.PreferenceConsentRequired };

/**
 * The person repeating themselves: a STOP texted again over their own STOP, whatever the source
 * and date of each, changes nothing (and is no error: nobody overrides anybody).
 */
function isOwnRepeat(row: PreferenceRow, state: PreferenceState): boolean {
  return (
    isOwnStatement(row.origin) &&
    isOwnStatement(state.origin) &&
    row.status === state.status &&
    row.coverage === state.coverage
  );
}

/**
 * The ledger's rules, in the order they apply: repeats; a person's own opt-out, which only the
 * person or consent evidence later than it lifts; a grant over any opt-out needs `consented_at`;
 * then causal order by `effective_at` (a grant must postdate the opt-out it reverses, anything
 * else must not predate the key's statement, nor the delete that emptied it).
 */
export function judge(current: PreferenceRow | undefined, state: PreferenceState): Verdict {
  if (!current) return { kind: 'insert' };
  const currentAt = new Date(current.effective_at).getTime();
  const at = state.effectiveAt.getTime();
  if (current.deleted_at) return at < currentAt ? { kind: 'older' } : { kind: 'replace' };
  if (isRepeat(current, state) || isOwnRepeat(current, state))
    // A grant must postdate the person's latest opt-out, not their first (the SDK: "later than
    // the opt-out it reverses").
    return isOwnStatement(state.origin) && at > currentAt
      ? { kind: 'restate' }
      : { kind: 'repeat' };
  const ownOptOut = current.status === 'revoked' && isOwnStatement(current.origin);
  const overOptOut = current.status === 'revoked' && state.status === 'granted';
  if (overOptOut && !state.consentedAt)
    return {
      kind: 'forbidden',
      code: ownOptOut
        ? PreferenceErrors.PreferenceOwnOptOut
        : PreferenceErrors.PreferenceConsentRequired,
    };
  // Only the person narrows or restates their own opt-out; on their behalf it is left alone. The
  // same opt-out said on their behalf (an import of an opt-out list) changes nothing: a repeat.
  if (ownOptOut && state.status === 'revoked' && !isOwnStatement(state.origin))
    return state.coverage === current.coverage
      ? { kind: 'repeat' }
      : { kind: 'forbidden', code: PreferenceErrors.PreferenceOwnOptOut };
  if (overOptOut ? at <= currentAt : at < currentAt) return { kind: 'older' };
  return { kind: 'replace' };
}
