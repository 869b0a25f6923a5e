import { Global, Module } from '@nestjs/common';
import type { DynamicModule, OnApplicationShutdown } from '@nestjs/common';
import { ContactErrors, ContactSubjects, EmailTemplateErrors } from '@switchboard/contracts';
import type { Contact, RequestContext } from '@switchboard/contracts';
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

/** Requests to another service carry no Idempotency-Key of the caller's. */
function plain(context: RequestContext): RequestContext {
  return { ...context, idempotencyKey: undefined, idempotencyFingerprint: undefined };
}

/** The contact by id; 404 `PreviewContactNotFound` when the workspace has no such contact. */
export async function contactById(
  client: ServiceClient,
  context: RequestContext,
  contactId: string,
): Promise<Record<string, unknown>> {
  try {
    const contact = await client.send(
      ContactSubjects.GetContact,
      { contact_id: contactId },
      plain(context),
    );
    return contactAttributes(contact);
  } catch (err) {
    if ((err as { code?: string }).code === ContactErrors.ContactNotFound)
      throw new AppError(EmailTemplateErrors.PreviewContactNotFound, { param: 'contact' });
    throw err;
  }
}

/** The workspace's contact with this email address, or null when it has none. */
export async function contactByEmail(
  client: ServiceClient,
  context: RequestContext,
  email: string,
): Promise<Record<string, unknown> | null> {
  const page = await client.send(ContactSubjects.ListContacts, { limit: 1, email }, plain(context));
  return page.data[0] ? contactAttributes(page.data[0]) : null;
}
