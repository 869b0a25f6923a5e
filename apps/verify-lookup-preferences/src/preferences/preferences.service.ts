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
import { CursorCodec, IdempotentWrites } from '@switchboard/persistence';
import type { Page } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { PreferenceLedger } from './preference-ledger';
import { normalizeHandle, normalizeSenderScope, statementOf } from './preference-statement';
import { toPreferenceDto } from './preference.mapper';
import { PreferencesRepository } from './preferences.repository';
import type { PreferenceKey } from './preferences.repository';

/**
 * The preference ledger's API: writes go through `PreferenceLedger` in the request's idempotent
 * transaction (its rules, transitions and events are the same for a person's own statements,
 * which reach it from the channels); reads are scoped by workspace.
 */
@Injectable()
export class PreferencesService {
  constructor(
    private readonly ledger: PreferenceLedger,
    private readonly repository: PreferencesRepository,
    private readonly writes: IdempotentWrites,
    private readonly cursors: CursorCodec,
  ) {}

  async create(
    context: RequestContext,
    input: CreatePreferenceRequest,
  ): Promise<CreatePreferenceReply> {
    const workspaceId = workspaceOf(context);
    const { handle, state } = statementOf(input, originOf(context), new Date());
    const key: PreferenceKey = {
      workspaceId,
      channel: input.channel,
      handle,
      senderScope: normalizeSenderScope(input.channel, input.sender_scope ?? null),
    };
    return this.writes.run(context, (manager) => this.ledger.record(manager, key, state));
  }

  /** Deletes the key's statement (its history stays); never a person's own statement. */
  remove(context: RequestContext, preferenceId: string): Promise<PreferenceWriteResult> {
    return this.writes.run(context, (manager) =>
      this.ledger.remove(manager, workspaceOf(context), preferenceId, originOf(context)),
    );
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
    const email = input.email ? normalizedFilterHandle('email', input.email) : null;
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

/** A handle as the ledger keys it (`anna@bücher.de` as its `xn--` form), else as given. */
function normalizedFilterHandle(channel: string, handle: string): string {
  const given = channel === 'email' ? handle.trim().toLowerCase() : handle.trim();
  return normalizeHandle(channel, handle) ?? given;
}

function originOf(context: RequestContext): string {
  return context.caller.kind === 'session' ? 'user' : 'api_key';
}
