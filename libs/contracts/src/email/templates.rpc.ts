import type { Page } from '../pagination';
import type { NoContent, Rpc } from '../rpc';
import type {
  CreateEmailTemplateRequest,
  DuplicateEmailTemplateRequest,
  EmailTemplate,
  EmailTemplateLanguage,
  EmailTemplateLanguageList,
  EmailTemplateLanguageSaved,
  EmailTemplatePreview,
  EmailTemplateSubjects,
  EmailTemplateSubmitResult,
  EmailTemplateSummary,
  EmailTemplateVersion,
  EmailTemplateVersionSummary,
  ListEmailTemplatesRequest,
  ListEmailTemplateVersionsRequest,
  PatchEmailTemplateLanguageRequest,
  PreviewEmailTemplateRequest,
  PutEmailTemplateLanguageRequest,
  RollbackEmailTemplateRequest,
  SubmitEmailTemplateRequest,
  TemplateLanguageRequest,
  TemplateRefRequest,
  TemplateVersionRequest,
  UpdateEmailTemplateRequest,
} from './templates';

/** The email service's template operations, by subject. */
export interface EmailTemplatesRpc {
  [EmailTemplateSubjects.List]: Rpc<ListEmailTemplatesRequest, Page<EmailTemplateSummary>>;
  [EmailTemplateSubjects.Create]: Rpc<CreateEmailTemplateRequest, EmailTemplate>;
  [EmailTemplateSubjects.Get]: Rpc<TemplateRefRequest, EmailTemplate>;
  [EmailTemplateSubjects.Update]: Rpc<UpdateEmailTemplateRequest, EmailTemplate>;
  [EmailTemplateSubjects.Delete]: Rpc<TemplateRefRequest, NoContent>;
  [EmailTemplateSubjects.Duplicate]: Rpc<DuplicateEmailTemplateRequest, EmailTemplate>;
  [EmailTemplateSubjects.Preview]: Rpc<PreviewEmailTemplateRequest, EmailTemplatePreview>;
  [EmailTemplateSubjects.ListVersions]: Rpc<
    ListEmailTemplateVersionsRequest,
    Page<EmailTemplateVersionSummary>
  >;
  [EmailTemplateSubjects.GetVersion]: Rpc<TemplateVersionRequest, EmailTemplateVersion>;
  [EmailTemplateSubjects.DiscardDraft]: Rpc<TemplateVersionRequest, NoContent>;
  [EmailTemplateSubjects.Submit]: Rpc<SubmitEmailTemplateRequest, EmailTemplateSubmitResult>;
  [EmailTemplateSubjects.Rollback]: Rpc<RollbackEmailTemplateRequest, EmailTemplate>;
  [EmailTemplateSubjects.ListLanguages]: Rpc<TemplateVersionRequest, EmailTemplateLanguageList>;
  [EmailTemplateSubjects.GetLanguage]: Rpc<TemplateLanguageRequest, EmailTemplateLanguage>;
  [EmailTemplateSubjects.PutLanguage]: Rpc<
    PutEmailTemplateLanguageRequest,
    EmailTemplateLanguageSaved
  >;
  [EmailTemplateSubjects.PatchLanguage]: Rpc<
    PatchEmailTemplateLanguageRequest,
    EmailTemplateLanguageSaved
  >;
  [EmailTemplateSubjects.DeleteLanguage]: Rpc<TemplateLanguageRequest, NoContent>;
}
