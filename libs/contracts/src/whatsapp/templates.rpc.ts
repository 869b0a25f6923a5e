import type { Page } from '../pagination';
import type { Rpc } from '../rpc';
import type {
  ListWhatsAppTemplatesRequest,
  ListWhatsAppTemplateVersionsRequest,
  SyncWhatsAppTemplatesReply,
  SyncWhatsAppTemplatesRequest,
  WhatsAppTemplate,
  WhatsAppTemplateLanguage,
  WhatsAppTemplateLanguageList,
  WhatsAppTemplateLanguageRequest,
  WhatsAppTemplateRefRequest,
  WhatsAppTemplateSubjects,
  WhatsAppTemplateVersion,
  WhatsAppTemplateVersionRequest,
  WhatsAppTemplateVersionSummary,
} from './templates';

/** The sms-whatsapp service's WhatsApp template operations, by subject. */
export interface WhatsAppTemplatesRpc {
  [WhatsAppTemplateSubjects.List]: Rpc<ListWhatsAppTemplatesRequest, Page<WhatsAppTemplate>>;
  [WhatsAppTemplateSubjects.Get]: Rpc<WhatsAppTemplateRefRequest, WhatsAppTemplate>;
  [WhatsAppTemplateSubjects.ListVersions]: Rpc<
    ListWhatsAppTemplateVersionsRequest,
    Page<WhatsAppTemplateVersionSummary>
  >;
  [WhatsAppTemplateSubjects.GetVersion]: Rpc<
    WhatsAppTemplateVersionRequest,
    WhatsAppTemplateVersion
  >;
  [WhatsAppTemplateSubjects.ListLanguages]: Rpc<
    WhatsAppTemplateVersionRequest,
    WhatsAppTemplateLanguageList
  >;
  [WhatsAppTemplateSubjects.GetLanguage]: Rpc<
    WhatsAppTemplateLanguageRequest,
    WhatsAppTemplateLanguage
  >;
  [WhatsAppTemplateSubjects.Sync]: Rpc<SyncWhatsAppTemplatesRequest, SyncWhatsAppTemplatesReply>;
}
