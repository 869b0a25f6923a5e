import { Injectable } from '@nestjs/common';
import { CONTACT_LIMITS, ContactErrors } from '@switchboard/contracts';
import type {
  Audience,
  AudienceMember,
  AudienceMembersRequest,
  AudienceSnapshotPage,
  CreateAudienceRequest,
  ListAudienceMembersRequest,
  ListAudiencesRequest,
  RequestContext,
  SnapshotAudienceMembersRequest,
  UpdateAudienceRequest,
} from '@switchboard/contracts';
import { CursorCodec, IdempotentWrites, newId } from '@switchboard/persistence';
import type { Page, SqlRunner } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { toContactDto } from '../contacts/contact.mapper';
import { ContactsRepository } from '../contacts/contacts.repository';
import { toAudienceDto } from './audience.mapper';
import { AudiencesRepository } from './audiences.repository';
import type { AudienceRow } from './audiences.repository';

const SNAPSHOT_PAGE_ROWS = 5000;
const SNAPSHOT_PAGE_BYTES = 768 * 1024;

/** Static audiences and their members: the rules of the SDK's `audiences` resource. */
@Injectable()
export class AudiencesService {
  constructor(
    private readonly repository: AudiencesRepository,
    private readonly contacts: ContactsRepository,
    private readonly writes: IdempotentWrites,
    private readonly cursors: CursorCodec,
  ) {}

  async list(context: RequestContext, request: ListAudiencesRequest): Promise<Page<Audience>> {
    const page = await this.repository.list(workspaceOf(context), request, this.cursors);
    return { ...page, data: page.data.map(toAudienceDto) };
  }

  async get(context: RequestContext, id: string): Promise<Audience> {
    return toAudienceDto(await this.found(workspaceOf(context), id));
  }

  create(context: RequestContext, input: CreateAudienceRequest): Promise<Audience> {
    const workspaceId = workspaceOf(context);
    const name = checkedName(input.name);
    return this.writes.run(context, async (runner) =>
      toAudienceDto(
        await this.repository.insert(runner, {
          id: newId('adn'),
          workspace_id: workspaceId,
          name,
          description: input.description ?? null,
        }),
      ),
    );
  }

  update(context: RequestContext, input: UpdateAudienceRequest): Promise<Audience> {
    const workspaceId = workspaceOf(context);
    const changes: { name?: string; description?: string | null } = {};
    if (input.name !== undefined) changes.name = checkedName(input.name);
    if (input.description !== undefined) changes.description = input.description;
    return this.writes.run(context, async (runner) => {
      const row = await this.repository.update(runner, workspaceId, input.audience_id, changes);
      if (!row) throw new AppError(ContactErrors.AudienceNotFound);
      return toAudienceDto(row);
    });
  }

  /**
   * Deletes the audience and its memberships, never the contacts. (Once broadcasts exist, an
   * audience a scheduled or sending broadcast targets will answer 409 here.)
   */
  remove(context: RequestContext, id: string): Promise<null> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (runner) => {
      if (!(await this.repository.delete(runner, workspaceId, id)))
        throw new AppError(ContactErrors.AudienceNotFound);
      return null;
    });
  }

  async members(
    context: RequestContext,
    request: ListAudienceMembersRequest,
  ): Promise<Page<AudienceMember>> {
    const workspaceId = workspaceOf(context);
    await this.found(workspaceId, request.audience_id);
    const page = await this.repository.members(
      workspaceId,
      request.audience_id,
      request,
      this.cursors,
    );
    const audiences = await this.contacts.audiencesOf(page.data.map((row) => row.id));
    return {
      ...page,
      data: page.data.map((row) => ({
        contact: toContactDto(row),
        joined_at: new Date(row.joined_at).toISOString(),
        audiences: audiences.get(row.id) ?? [],
      })),
    };
  }

  /**
   * A page of a broadcast's snapshot (internal). Cut short once its JSON passes 768 KB, so a
   * page of contacts with large \`data\` still fits NATS's 1 MB payload.
   */
  async snapshot(
    context: RequestContext,
    request: SnapshotAudienceMembersRequest,
  ): Promise<AudienceSnapshotPage> {
    const workspaceId = workspaceOf(context);
    await this.found(workspaceId, request.audience_id);
    const limit = Math.min(Math.max(1, request.limit), SNAPSHOT_PAGE_ROWS);
    const rows = await this.repository.snapshotMembers(workspaceId, request.audience_id, {
      limit: limit + 1,
      after: request.after,
      joinedBefore: request.joined_before,
      withFields: request.with_fields,
    });
    const data: AudienceSnapshotPage['data'] = [];
    let bytes = 0;
    for (const row of rows.slice(0, limit)) {
      const member = request.with_fields
        ? { contact_id: row.id, email: row.email, contact: toContactDto(row) }
        : { contact_id: row.id, email: row.email };
      bytes += JSON.stringify(member).length;
      if (bytes > SNAPSHOT_PAGE_BYTES && data.length > 0) break;
      data.push(member);
    }
    const more = data.length < rows.length;
    return { data, next: more ? data[data.length - 1].contact_id : null };
  }

  /** Adds (or removes) up to 1,000 contacts; any unknown id fails the call with nothing changed. */
  changeMembers(
    context: RequestContext,
    request: AudienceMembersRequest,
    change: 'add' | 'remove',
  ): Promise<null> {
    const workspaceId = workspaceOf(context);
    const ids = [...new Set(request.contact_ids)];
    if (ids.length === 0 || ids.length > CONTACT_LIMITS.membersPerCall)
      throw AppError.validation([
        { param: 'contact_ids', message: `1 to ${CONTACT_LIMITS.membersPerCall} contact ids` },
      ]);
    return this.writes.run(context, async (runner) => {
      await this.found(workspaceId, request.audience_id, runner);
      const missing = await this.repository.missing(runner, workspaceId, ids, 'contacts');
      if (missing.length)
        throw AppError.validation(
          missing.slice(0, 20).map((id) => ({
            param: `contact_ids[${request.contact_ids.indexOf(id)}]`,
            message: `no contact ${id} in this workspace; nothing was changed`,
          })),
        );
      if (change === 'add')
        await this.repository.addMembers(runner, workspaceId, [request.audience_id], ids);
      else await this.repository.removeMembers(runner, workspaceId, request.audience_id, ids);
      return null;
    });
  }

  /** One membership ends; 204 also when the contact was not a member. */
  removeMember(context: RequestContext, audienceId: string, contactId: string): Promise<null> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (runner) => {
      await this.found(workspaceId, audienceId, runner);
      await this.repository.removeMembers(runner, workspaceId, audienceId, [contactId]);
      return null;
    });
  }

  private async found(workspaceId: string, id: string, runner?: SqlRunner): Promise<AudienceRow> {
    const row = await this.repository.find(workspaceId, id, runner, runner !== undefined);
    if (!row) throw new AppError(ContactErrors.AudienceNotFound);
    return row;
  }
}

function checkedName(name: unknown): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed.length === 0 || trimmed.length > CONTACT_LIMITS.audienceNameLength)
    throw AppError.validation([
      {
        param: 'name',
        message: `1 to ${CONTACT_LIMITS.audienceNameLength} characters, not only spaces`,
      },
    ]);
  return trimmed;
}
