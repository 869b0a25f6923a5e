import type { OnApplicationShutdown } from '@nestjs/common';
import { ContactErrors, ContactSubjects, EmailTemplateErrors } from '@switchboard/contracts';
import type { RequestContext } from '@switchboard/contracts';
import { AppError, ServiceClient } from '@switchboard/platform';

/** The client a preview reads contacts with (the workspace-objects service); closed with the service. */
export class PreviewContactsClient extends ServiceClient implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}

/**
 * A contact's attributes as `bird.contact.*` reads them: its fields and its own data, from the
 * workspace-objects service through its typed contract. 404 `PreviewContactNotFound` when the
 * workspace has no such contact.
 */
export async function contactAttributes(
  client: ServiceClient,
  context: RequestContext,
  contactId: string,
): Promise<Record<string, unknown>> {
  try {
    const contact = await client.send(
      ContactSubjects.GetContact,
      { contact_id: contactId },
      { ...context, idempotencyKey: undefined, idempotencyFingerprint: undefined },
    );
    return {
      ...contact.data,
      id: contact.id,
      email: contact.email,
      phone_number: contact.phone_number,
      first_name: contact.first_name,
      last_name: contact.last_name,
      external_id: contact.external_id,
    };
  } catch (err) {
    if ((err as { code?: string }).code === ContactErrors.ContactNotFound)
      throw new AppError(EmailTemplateErrors.PreviewContactNotFound, { param: 'contact' });
    throw err;
  }
}
