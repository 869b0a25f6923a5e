import { Inject, Injectable } from '@nestjs/common';
import { WhatsAppConnectErrors, WhatsAppGraphErrors } from '@switchboard/contracts';
import type {
  ListWhatsAppNumberEventsRequest,
  ListWhatsAppNumbersRequest,
  RequestContext,
  WhatsAppNumber,
  WhatsAppNumberEvent,
  WhatsAppNumberProfile,
} from '@switchboard/contracts';
import { CursorCodec } from '@switchboard/persistence';
import type { Page } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { SMS_WHATSAPP_CONFIG } from '../../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { WHATSAPP_GRAPH } from '../graph/whatsapp-graph';
import type { WhatsAppGraph } from '../graph/whatsapp-graph';
import { graphStep } from './graph-failure';
import { numberFilters } from './number-filters';
import { toNumberEvent, toWhatsAppNumber } from './whatsapp-number.mapper';
import type { WhatsAppNumberRow } from './whatsapp-number.row';
import { WhatsAppNumbersRepository } from './whatsapp-numbers.repository';

const lower = (value: string | undefined) => value?.toLowerCase();

/** The SDK's `whatsapp.numbers`: the workspace's connected numbers, their events and profile. */
@Injectable()
export class WhatsAppNumbersService {
  constructor(
    @Inject(SMS_WHATSAPP_CONFIG) private readonly config: SmsWhatsappConfig,
    @Inject(WHATSAPP_GRAPH) private readonly graph: WhatsAppGraph,
    private readonly numbers: WhatsAppNumbersRepository,
    private readonly cursors: CursorCodec,
  ) {}

  async list(
    context: RequestContext,
    input: ListWhatsAppNumbersRequest,
  ): Promise<Page<WhatsAppNumber>> {
    const { filter, bound } = numberFilters(workspaceOf(context), input);
    const page = await this.numbers.list(filter, bound, pageOf(input), this.cursors);
    return { ...page, data: page.data.map(toWhatsAppNumber) };
  }

  async get(context: RequestContext, numberId: string): Promise<WhatsAppNumber> {
    return toWhatsAppNumber(await this.find(context, numberId));
  }

  async listEvents(
    context: RequestContext,
    input: ListWhatsAppNumberEventsRequest,
  ): Promise<Page<WhatsAppNumberEvent>> {
    const number = await this.find(context, input.number_id);
    const page = await this.numbers.listEvents(
      number.workspace_id,
      number.id,
      pageOf(input),
      this.cursors,
    );
    return { ...page, data: page.data.map(toNumberEvent) };
  }

  /** Read live from WhatsApp: the business profile and the display name of the number. */
  async profile(context: RequestContext, numberId: string): Promise<WhatsAppNumberProfile> {
    const number = await this.find(context, numberId);
    if (!this.config.WHATSAPP_ACCESS_TOKEN)
      throw new AppError(WhatsAppGraphErrors.WhatsAppNotConfigured);
    const [profile, phone] = await Promise.all([
      graphStep('reading the business profile', () =>
        this.graph.getBusinessProfile(number.phone_number_id),
      ),
      graphStep('reading the number', () => this.graph.getPhoneNumber(number.phone_number_id)),
    ]);
    const fields: WhatsAppNumberProfile = {
      display_name: phone.verified_name,
      display_name_status: lower(phone.name_status),
      about: profile.about,
      address: profile.address,
      description: profile.description,
      email: profile.email,
      vertical: lower(profile.vertical),
      websites: profile.websites?.slice(0, 2),
      profile_picture_url: profile.profile_picture_url,
    };
    return Object.fromEntries(
      Object.entries(fields).filter(([, value]) => value !== undefined && value !== ''),
    );
  }

  private async find(context: RequestContext, numberId: string): Promise<WhatsAppNumberRow> {
    const row = await this.numbers.find(workspaceOf(context), numberId);
    if (!row)
      throw new AppError(WhatsAppConnectErrors.WhatsAppNumberNotFound, { param: 'number_id' });
    return row;
  }
}

function pageOf(input: ListWhatsAppNumbersRequest | ListWhatsAppNumberEventsRequest) {
  return {
    limit: input.limit,
    starting_after: input.starting_after,
    ending_before: input.ending_before,
    sort: input.sort,
    order: input.order,
  };
}
