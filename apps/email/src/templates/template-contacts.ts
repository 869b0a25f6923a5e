import { Global, Module } from '@nestjs/common';
import type { DynamicModule, OnApplicationShutdown } from '@nestjs/common';
import { ContactErrors, ContactSubjects, EmailTemplateErrors } from '@switchboard/contracts';
import type { Contact, ContactProperty, RequestContext } from '@switchboard/contracts';
import { AppError, ServiceClient } from '@switchboard/platform';
import type { TransportSettings } from '@switchboard/platform';

/**
 * The client `bird.contact.*` values are read with (the workspace-objects service, through its
 * typed contract); closed with the service. Absent where the service has no transport (its
 * background part), which renders no template for a request.
 */
export class TemplateContactsClient extends ServiceClient implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}

/** Provides `TemplateContactsClient` to every feature module of the email service. */
@Global()
@Module({})
export class TemplateContactsModule {
  static register(transport?: TransportSettings): DynamicModule {
    const providers = transport
      ? [
          {
            provide: TemplateContactsClient,
            useFactory: () => new TemplateContactsClient(transport, 'email-templates'),
          },
        ]
      : [];
    return { module: TemplateContactsModule, providers, exports: providers };
  }
}

/** A contact's attributes as `bird.contact.*` reads them: its fields and its own data. */
export function contactAttributes(contact: Contact): Record<string, unknown> {
  return {
    ...contact.data,
    id: contact.id,
    email: contact.email,
    phone_number: contact.phone_number,
    first_name: contact.first_name,
    last_name: contact.last_name,
    external_id: contact.external_id,
  };
}

/** The contact's own attributes: never a property's, so never dropped or filled. */
const BUILT_IN = new Set(['id', 'email', 'phone_number', 'first_name', 'last_name', 'external_id']);

/** Requests to another service carry no Idempotency-Key of the caller's. */
function plain(context: RequestContext): RequestContext {
  return { ...context, idempotencyKey: undefined, idempotencyFingerprint: undefined };
}

/** The workspace's contact properties (at most 500), read at most once however many ask. */
export function propertiesOnce(
  client: ServiceClient,
  context: RequestContext,
): () => Promise<ContactProperty[]> {
  let read: Promise<ContactProperty[]> | undefined;
  return () => (read ??= listProperties(client, context));
}

async function listProperties(
  client: ServiceClient,
  context: RequestContext,
): Promise<ContactProperty[]> {
  const all: ContactProperty[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < PROPERTY_PAGES; page++) {
    const properties = await client.send(
      ContactSubjects.ListProperties,
      { limit: 100, ...(cursor ? { starting_after: cursor } : {}) },
      plain(context),
    );
    all.push(...properties.data);
    if (!properties.next_cursor) break;
    cursor = properties.next_cursor;
  }
  return all;
}

/**
 * `attributes` as templates read them: each of `keys` that is an archived property's dropped
 * (an archived property stops rendering, though contacts keep its values), and each it holds
 * no value for taken from its contact property's `fallback_value` (the values a broadcast to
 * the contact sends).
 */
async function withFallbacks(
  attributes: Record<string, unknown>,
  keys: string[],
  properties: () => Promise<ContactProperty[]>,
): Promise<Record<string, unknown>> {
  if (keys.length === 0) return attributes;
  const filled = { ...attributes };
  for (const property of await properties()) {
    if (!keys.includes(property.key) || BUILT_IN.has(property.key)) continue;
    if (property.archived) delete filled[property.key];
    else if (
      (!Object.hasOwn(filled, property.key) || filled[property.key] === null) &&
      property.fallback_value != null
    )
      filled[property.key] = property.fallback_value;
  }
  return filled;
}

/** Contact properties read for fallbacks: at most this many pages of 100. */
const PROPERTY_PAGES = 5;

/**
 * The contact by id, with fallbacks for the `keys` the template reads; 404
 * `PreviewContactNotFound` when the workspace has no such contact.
 */
export async function contactById(
  client: ServiceClient,
  context: RequestContext,
  contactId: string,
  keys: string[],
): Promise<Record<string, unknown>> {
  try {
    const contact = await client.send(
      ContactSubjects.GetContact,
      { contact_id: contactId },
      plain(context),
    );
    return await withFallbacks(contactAttributes(contact), keys, propertiesOnce(client, context));
  } catch (err) {
    if ((err as { code?: string }).code === ContactErrors.ContactNotFound)
      throw new AppError(EmailTemplateErrors.PreviewContactNotFound, { param: 'contact' });
    throw err;
  }
}

/**
 * The workspace's contact with this email address (with fallbacks for `keys`), or null; a
 * request reading several contacts passes one `propertiesOnce` to read the properties once.
 */
export async function contactByEmail(
  client: ServiceClient,
  context: RequestContext,
  email: string,
  keys: string[],
  properties = propertiesOnce(client, context),
): Promise<Record<string, unknown> | null> {
  const page = await client.send(ContactSubjects.ListContacts, { limit: 1, email }, plain(context));
  const contact = page.data[0];
  return contact ? withFallbacks(contactAttributes(contact), keys, properties) : null;
}
