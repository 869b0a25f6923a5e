import { Injectable } from '@nestjs/common';
import { PreferenceErrors } from '@switchboard/contracts';
import type { CreatePreferenceReply, PreferenceWriteResult } from '@switchboard/contracts';
import { writeOutboxEvents } from '@switchboard/background';
import { newId } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError } from '@switchboard/platform';
import { isOwnStatement } from './preference-statement';
import { judge } from './preference-rules';
import { preferenceEvent, toPreferenceDto } from './preference.mapper';
import { PreferencesRepository } from './preferences.repository';
import type { PreferenceKey, PreferenceRow, PreferenceState } from './preferences.repository';

export const PREFERENCES_SCHEMA = 'verify_lookup_preferences';

export interface RecordOptions {
  /**
   * The bus event that carried a person's own statement (an SMS STOP): its transition names it,
   * so a redelivery finds it recorded; a repeat is kept as evidence they said it again, and a
   * statement a rule refuses becomes a refused transition, since nobody is there to answer.
   */
  sourceEventId?: string;
}

/**
 * The ledger's writes, in the caller's transaction: one current statement per key, causally
 * ordered by `effective_at`, every write (applied or refused) a transition, each applied change
 * a `preference.*` event. The API's writes and the channels' statements both go through here.
 */
@Injectable()
export class PreferenceLedger {
  constructor(private readonly repository: PreferencesRepository) {}

  /** Records `state` for `key` under the ledger's rules (the key's writes take turns). */
  async record(
    runner: SqlRunner,
    key: PreferenceKey,
    state: PreferenceState,
    options: RecordOptions = {},
  ): Promise<CreatePreferenceReply> {
    const current = await this.repository.lockKey(runner, key);
    const source = options.sourceEventId ?? null;
    // A channel does not know the contact: its statement keeps the one the key last matched.
    const stated: PreferenceState =
      source && current ? { ...state, contactId: state.contactId ?? current.contact_id } : state;
    const surviving = current && !current.deleted_at ? toPreferenceDto(current) : null;
    const verdict = judge(current, stated);
    if (verdict.kind === 'insert' || verdict.kind === 'replace') {
      // After a delete the key starts a new preference, with a new id (the old one stays 404).
      const row =
        current && !current.deleted_at
          ? await this.repository.replace(runner, current.id, stated)
          : await this.repository.insert(runner, newId('prf'), key, stated);
      const result = await this.applied(runner, row, stated, source);
      return { created: !current || current.deleted_at !== null, result };
    }
    if (verdict.kind === 'forbidden' && !source) throw new AppError(verdict.code);
    // Every verdict left has a current row.
    const target = current as PreferenceRow;
    if (verdict.kind === 'restate') {
      const row = await this.repository.replace(runner, target.id, stated);
      const transitionId = await this.transition(runner, row, stated, true, source);
      return {
        created: false,
        result: { applied: true, transition_id: transitionId, preference: toPreferenceDto(row) },
      };
    }
    if (verdict.kind === 'repeat') {
      const transitionId = source
        ? await this.transition(runner, target, stated, true, source)
        : null;
      return {
        created: false,
        result: { applied: true, transition_id: transitionId, preference: surviving },
      };
    }
    const transitionId = await this.transition(runner, target, stated, false, source);
    return {
      created: false,
      result: { applied: false, transition_id: transitionId, preference: surviving },
    };
  }

  /** Deletes the key's statement (its history stays); never a person's own statement. */
  async remove(
    runner: SqlRunner,
    workspaceId: string,
    preferenceId: string,
    origin: string,
  ): Promise<PreferenceWriteResult> {
    const current = await this.repository.lockById(runner, workspaceId, preferenceId);
    if (!current) throw new AppError(PreferenceErrors.PreferenceNotFound);
    if (isOwnStatement(current.origin)) throw new AppError(PreferenceErrors.PreferenceOwnOptOut);
    const now = new Date();
    const state: PreferenceState = {
      status: current.status,
      coverage: current.coverage,
      origin,
      source: null,
      consentedAt: null,
      effectiveAt: now,
      contactId: current.contact_id,
    };
    if (now < new Date(current.effective_at)) {
      const transitionId = await this.transition(runner, current, state, false, null, 'deleted');
      return { applied: false, transition_id: transitionId, preference: toPreferenceDto(current) };
    }
    await this.repository.markDeleted(runner, current.id, now);
    const transitionId = await this.transition(runner, current, state, true, null, 'deleted');
    await writeOutboxEvents(runner, PREFERENCES_SCHEMA, [
      preferenceEvent('preference.deleted', current, transitionId, now),
    ]);
    return { applied: true, transition_id: transitionId, preference: null };
  }

  private async applied(
    runner: SqlRunner,
    row: PreferenceRow,
    state: PreferenceState,
    sourceEventId: string | null,
  ): Promise<PreferenceWriteResult> {
    const transitionId = await this.transition(runner, row, state, true, sourceEventId);
    const type = state.status === 'granted' ? 'preference.granted' : 'preference.revoked';
    await writeOutboxEvents(runner, PREFERENCES_SCHEMA, [
      preferenceEvent(type, row, transitionId, state.effectiveAt),
    ]);
    return { applied: true, transition_id: transitionId, preference: toPreferenceDto(row) };
  }

  private async transition(
    runner: SqlRunner,
    target: PreferenceRow,
    state: PreferenceState,
    applied: boolean,
    sourceEventId: string | null,
    kind: 'granted' | 'revoked' | 'deleted' = state.status,
  ): Promise<string> {
    const id = applied
      ? transitionIdAfter(newId('prt'), await this.repository.latestTransitionId(runner, target.id))
      : newId('prt');
    await this.repository.recordTransition(runner, {
      id,
      workspaceId: target.workspace_id,
      preferenceId: target.id,
      kind,
      applied,
      coverage: state.coverage,
      origin: state.origin,
      source: state.source,
      consentedAt: state.consentedAt,
      effectiveAt: state.effectiveAt,
      sourceEventId,
    });
    return id;
  }
}

/**
 * An applied transition's id, after every earlier one of its key (the caller holds the key's
 * lock). The channels' projections order a key's statements by effective_at, then transition id
 * (ADR 14): two writes in one millisecond would otherwise be ordered by their ids' random part,
 * and a revoke right after a grant could lose to it there.
 */
export function transitionIdAfter(candidate: string, latest: string | undefined): string {
  return latest !== undefined && candidate <= latest ? `${latest}0` : candidate;
}
