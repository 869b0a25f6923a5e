import { Injectable } from '@nestjs/common';
import { ContactErrors } from '@switchboard/contracts';
import type {
  Contact,
  ContactFields,
  ContactUpsertResultItem,
  ListContactsRequest,
  RequestContext,
  UpdateContactRequest,
  UpsertContactsRequest,
} from '@switchboard/contracts';
import { CursorCodec, IdempotentWrites, newId } from '@switchboard/persistence';
import type { Page, SqlRunner } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { AudiencesRepository } from '../audiences/audiences.repository';
import { ContactPropertiesRepository } from '../contact-properties/contact-properties.repository';
import { contactWrite, toContactDto } from './contact.mapper';
import { phoneNumber } from '@switchboard/contracts';
import {
  dataProblem,
  IDENTIFIER_TAKEN,
  identifiersOf,
  IDENTIFIERS,
  mergedData,
  readContact,
} from './contact-input';
import type { ContactInput, Identifier } from './contact-input';
import { ContactsRepository } from './contacts.repository';
import type { ContactRow, ContactWrite } from './contacts.repository';
import { planUpsert } from './upsert-plan';

/** Contacts: the rules of the SDK's `contacts` resource, bulk upsert included. */
@Injectable()
export class ContactsService {
  constructor(
    private readonly repository: ContactsRepository,
    private readonly properties: ContactPropertiesRepository,
    private readonly audiences: AudiencesRepository,
    private readonly writes: IdempotentWrites,
    private readonly cursors: CursorCodec,
  ) {}

  /** Newest first; each item carries its audiences (one query for the page). */
  async list(context: RequestContext, request: ListContactsRequest): Promise<Page<Contact>> {
    const problems: Array<{ param: string; message: string }> = [];
    const filter = { ...request };
    if (request.email !== undefined) filter.email = request.email.trim().toLowerCase();
    if (request.phone_number !== undefined)
      filter.phone_number = request.phone_number.map((value, index) => {
        const phone = phoneNumber(value);
        if (!phone)
          problems.push({ param: `phone_number[${index}]`, message: 'must be a phone number' });
        return phone ?? '';
      });
    if (problems.length) throw AppError.validation(problems);
    const page = await this.repository.list(workspaceOf(context), filter, this.cursors);
    const audiences = await this.repository.audiencesOf(page.data.map((row) => row.id));
    return { ...page, data: page.data.map((row) => toContactDto(row, audiences.get(row.id))) };
  }

  async get(context: RequestContext, id: string): Promise<Contact> {
    const row = await this.repository.find(workspaceOf(context), id);
    if (!row) throw new AppError(ContactErrors.ContactNotFound);
    return toContactDto(row);
  }

  async create(context: RequestContext, fields: ContactFields): Promise<Contact> {
    const workspaceId = workspaceOf(context);
    const { input, problems } = readContact(
      fields,
      'create',
      await this.properties.catalog(workspaceId),
    );
    if (input.email == null && input.phone_number == null && problems.length === 0)
      problems.push({ param: 'email', message: 'a contact needs an email or a phone_number' });
    const data = mergedData({}, input.data);
    const tooBig = dataProblem(data);
    if (tooBig) problems.push(tooBig);
    if (problems.length) throw AppError.validation(problems);
    return this.writes.run(context, async (runner) => {
      await this.claimIdentifiers(runner, workspaceId, input);
      const [row] = await this.repository.insert(runner, [
        {
          id: newId('con'),
          workspace_id: workspaceId,
          email: input.email ?? null,
          phone_number: input.phone_number ?? null,
          external_id: input.external_id ?? null,
          first_name: input.first_name ?? null,
          last_name: input.last_name ?? null,
          data,
        },
      ]);
      return toContactDto(row);
    });
  }

  /** PATCH: only what is sent changes; `data` merges (null removes); an identifier always remains. */
  async update(context: RequestContext, request: UpdateContactRequest): Promise<Contact> {
    const workspaceId = workspaceOf(context);
    const { input, problems } = readContact(
      request.changes,
      'update',
      await this.properties.catalog(workspaceId),
    );
    if (problems.length) throw AppError.validation(problems);
    return this.writes.run(context, async (runner) => {
      // Identifiers before the row, as every writer takes them (ADR 8): a batch holding this
      // contact's email while it waits for the row would otherwise deadlock with this update.
      const current = await this.repository.find(workspaceId, request.contact_id, runner);
      if (!current) throw new AppError(ContactErrors.ContactNotFound);
      await this.repository.lockIdentifiers(runner, workspaceId, [
        ...identifiersOf({
          email: current.email,
          phone_number: current.phone_number,
          external_id: current.external_id,
        }),
        ...identifiersOf(input),
      ]);
      const stored = await this.repository.find(workspaceId, request.contact_id, runner, true);
      if (!stored) throw new AppError(ContactErrors.ContactNotFound);
      const next: ContactWrite = contactWrite(stored);
      for (const key of [...IDENTIFIERS, 'first_name', 'last_name'] as const)
        if (input[key] !== undefined) next[key] = input[key];
      next.data = mergedData(stored.data, input.data);
      if (next.email === null && next.phone_number === null)
        throw AppError.validation([
          {
            param: input.email === null ? 'email' : 'phone_number',
            message: 'a contact keeps an email or a phone_number: set the other one first',
          },
        ]);
      const tooBig = dataProblem(next.data);
      if (tooBig) throw AppError.validation([tooBig]);
      const changed: ContactInput = {};
      for (const key of IDENTIFIERS)
        if (next[key] !== null && next[key] !== stored[key]) changed[key] = next[key];
      await this.claimIdentifiers(runner, workspaceId, changed, stored.id);
      const [row] = await this.repository.update(runner, [next]);
      return toContactDto(row);
    });
  }

  /** Deleting removes its memberships too (cascade). */
  remove(context: RequestContext, id: string): Promise<null> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (runner) => {
      if (!(await this.repository.delete(runner, workspaceId, id)))
        throw new AppError(ContactErrors.ContactNotFound);
      return null;
    });
  }

  /**
   * Bulk upsert: every entry read and checked in memory, then one transaction of a fixed number
   * of statements whatever the batch size (audiences checked, identifiers locked, matches read,
   * moving identifiers parked when any move, one UPDATE, one INSERT, one membership INSERT). A failed entry fails alone; unknown
   * audiences fail the request before anything is written.
   */
  async upsert(
    context: RequestContext,
    request: UpsertContactsRequest,
  ): Promise<{ data: ContactUpsertResultItem[] }> {
    const workspaceId = workspaceOf(context);
    const catalog = await this.properties.catalog(workspaceId);
    const entries = request.contacts.map((fields, index) =>
      readContact(fields, 'entry', catalog, `contacts[${index}].`),
    );
    const audienceIds = [...new Set(request.audience_ids ?? [])];
    return this.writes.run(context, async (runner) => {
      const missing = await this.audiences.missing(runner, workspaceId, audienceIds);
      if (missing.length)
        throw AppError.validation(
          missing.map((id) => ({
            param: `audience_ids[${request.audience_ids?.indexOf(id) ?? 0}]`,
            message: `no audience ${id} in this workspace; nothing was written`,
          })),
        );
      const existing = await this.lockAndRead(
        runner,
        workspaceId,
        entries.flatMap(({ input, problems }) => (problems.length ? [] : identifiersOf(input))),
      );
      const plan = planUpsert(workspaceId, entries, existing, {
        matchOn: request.match_on,
        replaceData: request.data_mode === 'replace',
        newId: () => newId('con'),
      });
      // Existing contacts first, their moving identifiers parked: an entry may take an
      // identifier an earlier one freed (contacts are matched and checked in memory, in order).
      const stored = new Map(existing.map((contact) => [contact.id, contact]));
      const moving = plan.updates.filter((row) => {
        const before = stored.get(row.id);
        return IDENTIFIERS.some((key) => before?.[key] != null && before[key] !== row[key]);
      });
      await this.repository.releaseIdentifiers(runner, moving);
      await this.repository.update(runner, plan.updates);
      await this.repository.insert(runner, plan.inserts);
      const contactIds = plan.results.flatMap((result) => result.contact_id ?? []);
      await this.audiences.addMembers(runner, workspaceId, audienceIds, contactIds);
      return { data: plan.results };
    });
  }

  /**
   * Locks the identifiers a write sets, then refuses those another contact holds (409 naming
   * the field): the unique indexes never have to fail a statement.
   */
  private async claimIdentifiers(
    runner: SqlRunner,
    workspaceId: string,
    input: ContactInput,
    self?: string,
  ): Promise<void> {
    const claimed = identifiersOf(input);
    const holders = await this.lockAndRead(runner, workspaceId, claimed);
    for (const [key, value] of claimed) {
      const holder = holders.find((row) => row.id !== self && row[key] === value);
      if (holder)
        throw new AppError(IDENTIFIER_TAKEN[key], {
          message: `The ${key} ${value} belongs to another contact (${holder.id}).`,
          param: key,
        });
    }
  }

  /** Locks the identifiers, then reads (and locks) the contacts holding any of them. */
  private async lockAndRead(
    runner: SqlRunner,
    workspaceId: string,
    identifiers: Array<[Identifier, string]>,
  ): Promise<ContactRow[]> {
    if (identifiers.length === 0) return [];
    await this.repository.lockIdentifiers(runner, workspaceId, identifiers);
    return this.repository.findByIdentifiers(runner, workspaceId, identifiers);
  }
}
