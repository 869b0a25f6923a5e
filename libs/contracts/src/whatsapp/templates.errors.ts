import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of WhatsApp templates: reading them, syncing them from Meta, resolving one to send. */
export const WhatsAppTemplatesErrorCatalog = {
  E01050: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppTemplateLanguageMissing',
    message: 'The template has no copy in the language asked for.',
    description:
      "The send named a `template.language` the template does not hold, neither as asked nor in a broader form (`pt-BR` is served by a `pt` copy, never by `pt-PT`), and the template's `on_missing_language` is `fail`, which WhatsApp templates default to: every language is reviewed and priced separately, so another language is not sent in its place. Read the template (`GET /v1/whatsapp/templates/{template_ref}`): `languages` lists the languages it holds and `available_languages` those a send can use now. Create the language in WhatsApp Manager and sync the account's templates, or send one of the available languages.",
  },
  E01051: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppTemplateLanguageNotApproved',
    message: 'The template language is not approved for sending.',
    description:
      "The language the send resolved to exists but Meta has not approved it, or no longer lets it be sent: it is `pending` review, `rejected`, `paused` or `disabled` for quality, `archived`, `deleted` or held by a limit. `template.languages[tag].status` says which, and a rejection carries Meta's reason. Nothing was sent or charged. A template's statuses follow Meta through its webhooks and the periodic sync; after fixing the template in WhatsApp Manager, sync it (`POST /workspaces/{workspace_id}/channel-groups/{channel_group_id}/sync-templates`) and send again.",
  },
  E01053: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppTemplateAmbiguous',
    message: 'More than one business account of the workspace has a template with this slug.',
    description:
      "A template's slug is its name at Meta, which is unique within one WhatsApp Business Account only. The workspace holds several accounts with a template of this name, and the send did not say which: send from a number of the account you mean (`from`), or name the template by its id (`wat_...`), which is unique. List them with `GET /v1/whatsapp/templates?q=<slug>`; each one's `waba` names its account.",
  },
  E01054: {
    status: 422,
    type: 'validation_error',
    name: 'ChannelGroupNotWhatsApp',
    message: 'The channel group has no WhatsApp Business Account to sync templates from.',
    description:
      "Templates are synced from the WhatsApp Business Account a channel group connects (`platformId` `whatsapp`, `platformGroupId` the account's id). This channel group holds no such account. Connect a WhatsApp number (`POST /workspaces/{workspace_id}/connectors`) and sync the group it makes: `GET /workspaces/{workspace_id}/channel-groups` lists them.",
  },
  E04075: {
    status: 404,
    type: 'not_found_error',
    name: 'WhatsAppTemplateNotFound',
    message: 'The WhatsApp template does not exist.',
    description:
      "No WhatsApp template of the credential's workspace has this id (`wat_...`) or slug; a send from a number looks in that number's business account only. Templates are copies of what Meta holds for the workspace's connected accounts: a template created in WhatsApp Manager appears after the next sync (periodic, or `POST /workspaces/{workspace_id}/channel-groups/{channel_group_id}/sync-templates`). List them with `GET /v1/whatsapp/templates`.",
  },
  E04076: {
    status: 404,
    type: 'not_found_error',
    name: 'WhatsAppTemplateVersionNotFound',
    message: 'The template version does not exist.',
    description:
      'The template has no version with this id (`wav_...`). Versions belong to one template: list them with `GET /v1/whatsapp/templates/{template_ref}/versions`. A sync that finds a language changed at Meta makes a new version; older ones stay readable.',
  },
  E04077: {
    status: 404,
    type: 'not_found_error',
    name: 'WhatsAppTemplateLanguageNotFound',
    message: 'The template version holds no such language.',
    description:
      "The version has no copy in this language. Languages are addressed by BCP-47 tag (`pt-BR`; Meta's `pt_BR` is accepted too). List a version's languages with `GET /v1/whatsapp/templates/{template_ref}/versions/{version_id}/languages`.",
  },
  E04078: {
    status: 404,
    type: 'not_found_error',
    name: 'ChannelGroupNotFound',
    message: 'The channel group does not exist.',
    description:
      "No channel group with this id belongs to the workspace in the path (the access key's own workspace). `GET /workspaces/{workspace_id}/channel-groups` lists the workspace's groups; connecting a WhatsApp number makes one per business account.",
  },
} as const satisfies Record<string, ErrorDefinition>;

export const WhatsAppTemplatesErrors = codesOf(WhatsAppTemplatesErrorCatalog);
