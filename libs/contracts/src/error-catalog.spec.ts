import { CommonErrorCatalog } from './errors/common.errors';
import { ContactErrorCatalog, ContactErrors } from './contacts/contacts.errors';
import { DocsErrorCatalog } from './docs/docs.errors';
import { EmailErrorCatalog, EmailErrors } from './email/email.errors';
import { EmailTrackingErrorCatalog } from './email/tracking.errors';
import { EmailBroadcastErrorCatalog } from './email/broadcasts.errors';
import { EmailTemplateErrorCatalog } from './email/templates.errors';
import { ErrorCatalog } from './error-catalog';
import { RealtimeErrorCatalog } from './realtime/realtime.errors';
import { SmsErrorCatalog, SmsErrors } from './sms/sms.errors';
import { SmsRulesErrorCatalog } from './sms/sms-rules.errors';
import { WebhookErrorCatalog } from './webhooks/webhooks.errors';
import { NumbersErrorCatalog } from './numbers/numbers.errors';
import { VoiceErrorCatalog } from './voice/voice.errors';
import { WhatsAppWebhookErrorCatalog } from './whatsapp/webhooks.errors';
import { WhatsAppMessagesErrorCatalog } from './whatsapp/messages.errors';
import { WhatsAppGraphErrorCatalog } from './whatsapp/graph.errors';
import { WhatsAppContentErrorCatalog } from './whatsapp/content.errors';
import { WhatsAppInteractionsErrorCatalog } from './whatsapp/interactions.errors';
import { WhatsAppConnectErrorCatalog } from './whatsapp/connect.errors';
import { WhatsAppTemplatesErrorCatalog } from './whatsapp/templates.errors';
import { PreferenceErrorCatalog } from './preferences/preferences.errors';
import { LookupErrorCatalog } from './lookup/lookup.errors';
import { VerifyErrorCatalog } from './verify/verify.errors';
import { StatsErrorCatalog } from './stats/stats.errors';

const areas = [
  CommonErrorCatalog,
  DocsErrorCatalog,
  RealtimeErrorCatalog,
  EmailErrorCatalog,
  EmailTrackingErrorCatalog,
  EmailBroadcastErrorCatalog,
  EmailTemplateErrorCatalog,
  WebhookErrorCatalog,
  ContactErrorCatalog,
  SmsErrorCatalog,
  NumbersErrorCatalog,
  VoiceErrorCatalog,
  SmsRulesErrorCatalog,
  WhatsAppWebhookErrorCatalog,
  WhatsAppMessagesErrorCatalog,
  WhatsAppGraphErrorCatalog,
  WhatsAppContentErrorCatalog,
  WhatsAppInteractionsErrorCatalog,
  WhatsAppConnectErrorCatalog,
  WhatsAppTemplatesErrorCatalog,
  PreferenceErrorCatalog,
  LookupErrorCatalog,
  VerifyErrorCatalog,
  StatsErrorCatalog,
];

describe('ErrorCatalog', () => {
  it('joins the areas without one code claimed twice', () => {
    const codes = areas.flatMap((area) => Object.keys(area));
    expect(new Set(codes).size).toBe(codes.length);
    expect(Object.keys(ErrorCatalog)).toHaveLength(codes.length);
  });

  it('lists the codes in order and gives every code a unique name', () => {
    const codes = Object.keys(ErrorCatalog);
    expect(codes).toEqual([...codes].sort());
    const names = Object.values(ErrorCatalog).map((definition) => definition.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('names each code for throw sites', () => {
    expect(EmailErrors.DomainNotFound).toBe('E04005');
    expect(ContactErrors.ContactEmailTaken).toBe('E04056');
    expect(SmsErrors.SmsCarrierNotConfigured).toBe('E05006');
    expect(ErrorCatalog[EmailErrors.DomainNotFound].status).toBe(404);
  });
});
