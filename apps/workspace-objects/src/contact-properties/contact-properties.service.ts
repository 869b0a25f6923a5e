import { Injectable } from '@nestjs/common';
import { CONTACT_LIMITS, CONTACT_PROPERTY_TYPES, ContactErrors } from '@switchboard/contracts';
import type {
  ContactProperty,
  CreateContactPropertyRequest,
  RequestContext,
  UpdateContactPropertyRequest,
} from '@switchboard/contracts';
import { CursorCodec, IdempotentWrites, newId } from '@switchboard/persistence';
import type { Page, PageRequest } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { toPropertyDto } from './contact-property.mapper';
import { ContactPropertiesRepository } from './contact-properties.repository';
import type { PropertyRow } from './contact-properties.repository';
import { propertyValue } from './property-values';

const KEY = /^[a-z][a-z0-9_]*$/;

/** Contact properties: the rules of the SDK's `contactProperties` resource. */
@Injectable()
export class ContactPropertiesService {
  constructor(
    private readonly repository: ContactPropertiesRepository,
    private readonly writes: IdempotentWrites,
    private readonly cursors: CursorCodec,
  ) {}

  async list(context: RequestContext, request: PageRequest): Promise<Page<ContactProperty>> {
    const page = await this.repository.list(workspaceOf(context), request, this.cursors);
    return { ...page, data: page.data.map(toPropertyDto) };
  }

  async get(context: RequestContext, id: string): Promise<ContactProperty> {
    return toPropertyDto(await this.found(workspaceOf(context), id));
  }

  create(context: RequestContext, input: CreateContactPropertyRequest): Promise<ContactProperty> {
    const workspaceId = workspaceOf(context);
    if (!KEY.test(input.key) || input.key.length > CONTACT_LIMITS.propertyKeyLength)
      throw AppError.validation([
        {
          param: 'key',
          message: `must be lowercase letters, digits and _, starting with a letter, at most ${CONTACT_LIMITS.propertyKeyLength} characters`,
        },
      ]);
    if (!(CONTACT_PROPERTY_TYPES as readonly string[]).includes(input.type))
      throw AppError.validation([
        { param: 'type', message: `must be one of ${CONTACT_PROPERTY_TYPES.join(', ')}` },
      ]);
    const fallback = fallbackOf(input.type, input.fallback_value);
    return this.writes.run(context, async (runner) => {
      const row = await this.repository.insert(
        runner,
        {
          id: newId('cp'),
          workspace_id: workspaceId,
          key: input.key,
          type: input.type,
          fallback_value: fallback,
        },
        CONTACT_LIMITS.propertiesPerWorkspace,
      );
      if (row === 'key_taken')
        throw new AppError(ContactErrors.ContactPropertyExists, {
          message: `A contact property with the key ${input.key} already exists.`,
          param: 'key',
        });
      if (row === 'limit') throw new AppError(ContactErrors.ContactPropertyLimit);
      return toPropertyDto(row);
    });
  }

  update(context: RequestContext, input: UpdateContactPropertyRequest): Promise<ContactProperty> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (runner) => {
      const row = await this.found(workspaceId, input.property_id, runner);
      const changes =
        'fallback_value' in input
          ? { fallback_value: fallbackOf(row.type, input.fallback_value) }
          : {};
      const updated = await this.repository.update(runner, workspaceId, row.id, changes);
      return toPropertyDto(updated ?? row);
    });
  }

  /** Archived: refused in new writes, stored values kept; 409 when already in that state. */
  setArchived(context: RequestContext, id: string, archived: boolean): Promise<ContactProperty> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (runner) => {
      const row = await this.found(workspaceId, id, runner);
      if (row.archived === archived)
        throw new AppError(
          archived
            ? ContactErrors.ContactPropertyArchived
            : ContactErrors.ContactPropertyNotArchived,
        );
      const updated = await this.repository.update(runner, workspaceId, row.id, { archived });
      return toPropertyDto(updated ?? row);
    });
  }

  private async found(
    workspaceId: string,
    id: string,
    runner?: Parameters<ContactPropertiesRepository['find']>[2],
  ): Promise<PropertyRow> {
    const row = await this.repository.find(workspaceId, id, runner, runner !== undefined);
    if (!row) throw new AppError(ContactErrors.ContactPropertyNotFound);
    return row;
  }
}

/** A fallback value of the property's type (datetimes normalized), or null for none. */
function fallbackOf(type: PropertyRow['type'], value: unknown): unknown {
  if (value === undefined || value === null) return null;
  const checked = propertyValue(type, value);
  if ('problem' in checked)
    throw AppError.validation([
      { param: 'fallback_value', message: `${checked.problem} (${type})` },
    ]);
  return checked.value;
}
