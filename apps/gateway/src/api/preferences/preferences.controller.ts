import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { ContactSubjects, PreferenceSubjects } from '@switchboard/contracts';
import type { PreferenceWriteResult, RequestContext } from '@switchboard/contracts';
import { AppError, ServiceClient } from '@switchboard/platform';
import type { FastifyReply } from 'fastify';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import {
  ContactPreferencesQuery,
  CreatePreferenceDto,
  ListPreferencesQuery,
} from './preferences.dto';

const preferences = { tag: 'Preferences', auth: 'api' } as const;

/** The preference ledger (contract section 11), answered by the verify-lookup-preferences service. */
@Controller('v1/preferences')
export class PreferencesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @Route({
    ...preferences,
    summary: 'List stated preferences, newest first (channel, and handle within a channel)',
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListPreferencesQuery,
    response: { status: 200, description: 'A page of preferences' },
  })
  list(@ValidQuery() query: ListPreferencesQuery, @CallContext() context: RequestContext) {
    if (query.handle !== undefined && query.channel === undefined)
      throw AppError.validation([{ param: 'handle', message: 'requires channel' }]);
    return this.services.send(PreferenceSubjects.ListPreferences, { ...query }, context);
  }

  @Post()
  @HttpCode(201)
  @Route({
    ...preferences,
    summary: 'Record a preference statement (upsert by key, causally ordered)',
    role: 'write',
    rateLimit: 'write',
    body: CreatePreferenceDto,
    response: {
      status: 201,
      description: 'The write result (200 when the key already had a record)',
    },
    errors: [422],
  })
  async create(
    @ValidBody() body: CreatePreferenceDto,
    @CallContext() context: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PreferenceWriteResult> {
    const contactId = await this.matchingContact(body.channel, body.handle, context);
    const result = await this.services.send(
      PreferenceSubjects.CreatePreference,
      { ...body, contact_id: contactId },
      context,
    );
    if (!result.created) void reply.status(200);
    return result.result;
  }

  @Get(':preference_id')
  @Route({
    ...preferences,
    summary: 'Get a preference',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The preference' },
  })
  get(@Param('preference_id') preferenceId: string, @CallContext() context: RequestContext) {
    return this.services.send(
      PreferenceSubjects.GetPreference,
      { preference_id: preferenceId },
      context,
    );
  }

  @Delete(':preference_id')
  @HttpCode(200)
  @Route({
    ...preferences,
    summary: "Delete a preference (never a person's own statement); 200 with the write result",
    role: 'write',
    rateLimit: 'write',
    response: { status: 200, description: 'The write result' },
    errors: [422],
  })
  remove(@Param('preference_id') preferenceId: string, @CallContext() context: RequestContext) {
    return this.services.send(
      PreferenceSubjects.DeletePreference,
      { preference_id: preferenceId },
      context,
    );
  }

  /** The contact whose handle this is at the moment of the write, if any (informational). */
  private async matchingContact(
    channel: string,
    handle: string,
    context: RequestContext,
  ): Promise<string | null> {
    const trimmed = handle.trim();
    let filter: { email: string } | { phone_number: string[] } | undefined;
    if (channel === 'email' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed))
      filter = { email: trimmed.toLowerCase() };
    else if (channel !== 'email' && /^\+[1-9]\d{6,14}$/.test(trimmed))
      filter = { phone_number: [trimmed] };
    if (!filter) return null;
    const page = await this.services.send(
      ContactSubjects.ListContacts,
      { limit: 1, ...filter },
      context,
    );
    return page.data[0]?.id ?? null;
  }
}

/** A contact's own preferences: those of its current email address and phone number. */
@Controller('v1/contacts/:contact_id/preferences')
export class ContactPreferencesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @Route({
    ...preferences,
    summary: "List a contact's preferences (its current handles), newest first",
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ContactPreferencesQuery,
    response: { status: 200, description: 'A page of preferences' },
  })
  async list(
    @Param('contact_id') contactId: string,
    @ValidQuery() query: ContactPreferencesQuery,
    @CallContext() context: RequestContext,
  ) {
    const contact = await this.services.send(
      ContactSubjects.GetContact,
      { contact_id: contactId },
      context,
    );
    return this.services.send(
      PreferenceSubjects.ListContactPreferences,
      {
        ...query,
        contact_id: contact.id,
        email: contact.email,
        phone_number: contact.phone_number,
      },
      context,
    );
  }
}
