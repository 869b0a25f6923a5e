import type { NoContent, Rpc } from '../rpc';
import type { Page } from '../pagination';
import type {
  CreateSmsKeywordRuleRequest,
  ListSmsKeywordRulesRequest,
  SmsKeywordRule,
  SmsKeywordRuleIdRequest,
  SmsKeywordRuleList,
  SmsKeywordRuleSubjects,
  UpdateSmsKeywordRuleRequest,
} from './sms-keywords';
import type {
  AddSmsSuppressionReply,
  AddSmsSuppressionRequest,
  ListSmsSuppressionsRequest,
  SmsSuppression,
  SmsSuppressionIdRequest,
  SmsSuppressionSubjects,
} from './sms-suppressions';
import type {
  GetSmsTemplateRequest,
  ListSmsTemplatesRequest,
  SmsTemplate,
  SmsTemplateList,
  SmsTemplateSubjects,
} from './sms-templates';

/** The sms-whatsapp service's template, keyword rule and suppression operations, by subject. */
export interface SmsRulesRpc {
  [SmsTemplateSubjects.List]: Rpc<ListSmsTemplatesRequest, SmsTemplateList>;
  [SmsTemplateSubjects.Get]: Rpc<GetSmsTemplateRequest, SmsTemplate>;
  [SmsKeywordRuleSubjects.List]: Rpc<ListSmsKeywordRulesRequest, SmsKeywordRuleList>;
  [SmsKeywordRuleSubjects.Get]: Rpc<SmsKeywordRuleIdRequest, SmsKeywordRule>;
  [SmsKeywordRuleSubjects.Create]: Rpc<CreateSmsKeywordRuleRequest, SmsKeywordRule>;
  [SmsKeywordRuleSubjects.Update]: Rpc<UpdateSmsKeywordRuleRequest, SmsKeywordRule>;
  [SmsKeywordRuleSubjects.Delete]: Rpc<SmsKeywordRuleIdRequest, NoContent>;
  [SmsSuppressionSubjects.List]: Rpc<ListSmsSuppressionsRequest, Page<SmsSuppression>>;
  [SmsSuppressionSubjects.Get]: Rpc<SmsSuppressionIdRequest, SmsSuppression>;
  [SmsSuppressionSubjects.Add]: Rpc<AddSmsSuppressionRequest, AddSmsSuppressionReply>;
  [SmsSuppressionSubjects.Remove]: Rpc<SmsSuppressionIdRequest, NoContent>;
}
