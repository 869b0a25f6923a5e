import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of SMS templates, keyword rules and suppressions. */
export const SmsRulesErrorCatalog = {
  E01029: {
    status: 422,
    type: 'validation_error',
    name: 'SmsSuppressionNotRemovable',
    message: 'Only a manual SMS suppression can be ended through the API.',
    description:
      "`DELETE /v1/sms/suppressions/{suppression_id}` ends suppressions with reason `manual` only. A `keyword_stop` suppression is the subscriber's own statement: it ends when they text a start keyword (START, UNSTOP...) to the same sender, or when a preference grant for the pair records consent given after their STOP. Sending to that subscriber from that sender stays blocked until then; your other senders are not affected.",
  },
  E01030: {
    status: 422,
    type: 'validation_error',
    name: 'SmsKeywordRuleInvalid',
    message: 'The keyword rule cannot apply as asked.',
    description:
      "The rule is well formed but cannot apply: its `country` has no default keyword coverage for a `stop`, `start`, `help` or `info` rule (only `custom` rules work there), the `language` does not match one the country ships, or the `number` is not one of the workspace's numbers able to receive SMS. `param` names the field and the message says which. List `GET /v1/sms/keyword-rules?country=XX` to see the country's defaults and languages.",
  },
  E01031: {
    status: 422,
    type: 'validation_error',
    name: 'SmsSystemRuleReadOnly',
    message: 'Default keyword rules cannot be changed or deleted.',
    description:
      "An `sks_` rule is one of the platform's defaults for a country (the stop, start and help keywords carriers and regulators require): it can be read but not updated or deleted. To change what it replies, create a workspace rule with the same `operation` and `country` (`POST /v1/sms/keyword-rules`); yours takes precedence, keeps the default keywords and may add your own. The request is refused with 422 rather than 403 because the credential is allowed to manage keyword rules: it is the rule that cannot change.",
  },
  E04060: {
    status: 404,
    type: 'not_found_error',
    name: 'SmsTemplateNotFound',
    message: 'The SMS template does not exist.',
    description:
      'No SMS template has this id or slug. List the catalog with `GET /v1/sms/templates`; built-in slugs begin with `bird_` (for example `bird_otp_verification`).',
  },
  E04061: {
    status: 404,
    type: 'not_found_error',
    name: 'SmsKeywordRuleNotFound',
    message: 'The SMS keyword rule does not exist.',
    description:
      'No keyword rule with this id applies to the workspace of the credential: neither a default (`sks_`) nor one the workspace created (`skw_`). A deleted workspace rule is gone; its default applies again.',
  },
  E04062: {
    status: 404,
    type: 'not_found_error',
    name: 'SmsSuppressionNotFound',
    message: 'The SMS suppression does not exist.',
    description:
      'No SMS suppression with this id exists in the workspace of the credential. Ended suppressions stay readable by id; to find the ones in force for a number, list `GET /v1/sms/suppressions?destination=+E164`.',
  },
  E06010: {
    status: 409,
    type: 'conflict_error',
    name: 'SmsKeywordConflict',
    message: 'The keyword is already bound for this country or number.',
    description:
      'A keyword matches one rule per country (or number): it cannot be added to a rule when a default rule of another operation ships it (STOP is always an opt-out keyword, HELP always a help keyword), or when another workspace rule for the same country and number already has it. The same holds for a second workspace rule of the same operation, country, language and number: change the existing one (`PATCH /v1/sms/keyword-rules/{id}`) instead. `param` names the field and the message names the keyword and the rule that has it.',
  },
} as const satisfies Record<string, ErrorDefinition>;

export const SmsRulesErrors = codesOf(SmsRulesErrorCatalog);
