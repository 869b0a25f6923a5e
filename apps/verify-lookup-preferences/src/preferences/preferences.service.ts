import { Injectable } from '@nestjs/common';
import { PreferenceErrors } from '@switchboard/contracts';
import type {
  CreatePreferenceReply,
  CreatePreferenceRequest,
  ListContactPreferencesRequest,
  ListPreferencesRequest,
  Preference,
  PreferenceWriteResult,
  RequestContext,
} from '@switchboard/contracts';
import { writeOutboxEvents } from '@switchboard/background';
import { CursorCodec, IdempotentWrites, newId } from '@switchboard/persistence';
import type { Page, SqlRunner } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { isOwnStatement, isRepeat, statementOf } from './preference-statement';
import { preferenceEvent, toPreferenceDto } from './preference.mapper';
import { PreferencesRepository } from './preferences.repository';
import type { PreferenceKey, PreferenceRow, PreferenceState } from './preferences.repository';

const SCHEMA = 'verify_lookup_preferences';

/**
 * The preference ledger: one current statement per key, causally ordered by `effective_at`,
 * every write (applied or refused) recorded as a transition, each applied change an event.
 */
@Injectable()
export class PreferencesService {
  constructor(
    private readonly repository: PreferencesRepository,
    private readonly writes: IdempotentWrites,
    private readonly cursors: CursorCodec,
  ) {}

  async create(
    context: RequestContext,
    input: CreatePreferenceRequest,
  ): Promise<CreatePreferenceReply> {
    const workspaceId = workspaceOf(context);
    const origin = context.caller.kind === 'session' ? 'user' : 'api_key';
    const { handle, state } = statementOf(input, origin, new Date());
    const key: PreferenceKey = {
      workspaceId,
      channel: input.channel,
      handle,
      senderScope: input.sender_scope ?? null,
    };
    return this.writes.run(context, async (manager) => {
      const current = await this.repository.lockKey(manager, key);
      if (current && !current.deleted_at) return this.overwrite(manager, current, state);
      if (current && state.effectiveAt < new Date(current.effective_at)) {
        // Older than the delete that left the key empty.
        const transitionId = await this.transition(manager, current, state, false);
        return {
          created: false,
          result: { applied: false, transition_id: transitionId, preference: null },
        };
      }
      const row = current
        ? await this.repository.replace(manager, current.id, state)
        : await this.repository.insert(manager, newId('prf'), key, state);
      return { created: true, result: await this.applied(manager, row, state) };
    });
  }

  private async overwrite(
    manager: SqlRunner,
    current: PreferenceRow,
    state: PreferenceState,
  ): Promise<CreatePreferenceReply> {
    const surviving = toPreferenceDto(current);
    if (isRepeat(current, state))
      return {
        created: false,
        result: { applied: true, transition_id: null, preference: surviving },
      };
    const ownOptOut = current.status === 'revoked' && isOwnStatement(current.origin);
    if (current.status === 'revoked' && state.status === 'granted' && !state.consentedAt)
      throw new AppError(
        ownOptOut
          ? PreferenceErrors.PreferenceOwnOptOut
          : PreferenceErrors.PreferenceConsentRequired,
      );
    if (ownOptOut && state.status === 'revoked')
      throw new AppError(PreferenceErrors.PreferenceOwnOptOut);
    const overOptOut = current.status === 'revoked' && state.status === 'granted';
    const currentAt = new Date(current.effective_at).getTime();
    const at = state.effectiveAt.getTime();
    // A grant must postdate the opt-out it reverses; anything else must not predate the key.
    if (overOptOut ? at <= currentAt : at < currentAt) {
      const transitionId = await this.transition(manager, current, state, false);
      return {
        created: false,
        result: { applied: false, transition_id: transitionId, preference: surviving },
      };
    }
    const row = await this.repository.replace(manager, current.id, state);
    return { created: false, result: await this.applied(manager, row, state) };
  }

  private async applied(
    manager: SqlRunner,
    row: PreferenceRow,
    state: PreferenceState,
  ): Promise<PreferenceWriteResult> {
    const transitionId = await this.transition(manager, row, state, true);
    const type = state.status === 'granted' ? 'preference.granted' : 'preference.revoked';
    await writeOutboxEvents(manager, SCHEMA, [
      preferenceEvent(type, row, transitionId, state.effectiveAt),
    ]);
    return { applied: true, transition_id: transitionId, preference: toPreferenceDto(row) };
  }

  private async transition(
    manager: SqlRunner,
    target: PreferenceRow,
    state: PreferenceState,
    applied: boolean,
    kind: 'granted' | 'revoked' | 'deleted' = state.status,
  ): Promise<string> {
    const id = newId('prt');
    await this.repository.recordTransition(manager, {
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
    });
    return id;
  }

  /** Deletes the key's statement (its history stays); never a person's own statement. */
  async remove(context: RequestContext, preferenceId: string): Promise<PreferenceWriteResult> {
    const workspaceId = workspaceOf(context);
    const origin = context.caller.kind === 'session' ? 'user' : 'api_key';
    return this.writes.run(context, async (manager) => {
      const current = await this.repository.lockById(manager, workspaceId, preferenceId);
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
        const transitionId = await this.transition(manager, current, state, false, 'deleted');
        return {
          applied: false,
          transition_id: transitionId,
          preference: toPreferenceDto(current),
        };
      }
      await this.repository.markDeleted(manager, current.id, now);
      const transitionId = await this.transition(manager, current, state, true, 'deleted');
      await writeOutboxEvents(manager, SCHEMA, [
        preferenceEvent('preference.deleted', current, transitionId, now),
      ]);
      return { applied: true, transition_id: transitionId, preference: null };
    });
  }

  async get(context: RequestContext, preferenceId: string): Promise<Preference> {
    const row = await this.repository.find(workspaceOf(context), preferenceId);
    if (!row) throw new AppError(PreferenceErrors.PreferenceNotFound);
    return toPreferenceDto(row);
  }

  async list(context: RequestContext, input: ListPreferencesRequest): Promise<Page<Preference>> {
    const params: unknown[] = [];
    let sql = '';
    if (input.channel !== undefined) {
      params.push(input.channel);
      sql += ` AND channel = $${params.length + 1}`;
    }
    if (input.handle !== undefined && input.channel !== undefined) {
      params.push(normalizedFilterHandle(input.channel, input.handle));
      sql += ` AND handle = $${params.length + 1}`;
    }
    const filters = { channel: input.channel ?? null, handle: input.handle ?? null };
    return this.page(context, { sql, params, filters }, input);
  }

  /** The preferences of a contact's current handles: its address on email, its number elsewhere. */
  async listForContact(
    context: RequestContext,
    input: ListContactPreferencesRequest,
  ): Promise<Page<Preference>> {
    const email = input.email?.trim().toLowerCase() ?? null;
    const phone = input.phone_number?.trim() ?? null;
    const sql =
      " AND ((channel = 'email' AND handle = $2) OR (channel <> 'email' AND handle = $3))";
    const filters = { contact_id: input.contact_id, email, phone };
    return this.page(context, { sql, params: [email, phone], filters }, input);
  }

  private async page(
    context: RequestContext,
    match: { sql: string; params: unknown[]; filters: Record<string, unknown> },
    request: { limit: number; starting_after?: string; ending_before?: string },
  ): Promise<Page<Preference>> {
    const page = await this.repository.page(
      workspaceOf(context),
      match,
      {
        limit: request.limit,
        starting_after: request.starting_after,
        ending_before: request.ending_before,
      },
      this.cursors,
    );
    return { ...page, data: page.data.map(toPreferenceDto) };
  }
}

function normalizedFilterHandle(channel: string, handle: string): string {
  return channel === 'email' ? handle.trim().toLowerCase() : handle.trim();
}
