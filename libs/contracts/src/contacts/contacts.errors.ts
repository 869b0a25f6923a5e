import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of contacts, contact properties and audiences. */
export const ContactErrorCatalog = {
  E04013: {
    status: 404,
    type: 'not_found_error',
    name: 'ContactNotFound',
    message: 'No contact with this id exists in this workspace.',
    description:
      "The `contact_id` is not one of this workspace's contacts: it was deleted, or it belongs to another workspace. Look one up by email, phone number or external id with `GET /v1/contacts`.",
  },
  E04014: {
    status: 404,
    type: 'not_found_error',
    name: 'AudienceNotFound',
    message: 'No audience with this id exists in this workspace.',
    description:
      "The `audience_id` is not one of this workspace's audiences: it was deleted, or it belongs to another workspace. List them with `GET /v1/audiences`.",
  },
  E04015: {
    status: 404,
    type: 'not_found_error',
    name: 'ContactPropertyNotFound',
    message: 'No contact property with this id exists in this workspace.',
    description:
      "The `property_id` is not one of this workspace's contact properties. List them with `GET /v1/contact-properties`; archived properties are listed too.",
  },
  E04055: {
    status: 409,
    type: 'conflict_error',
    name: 'ContactPhoneTaken',
    message: 'The phone number belongs to another contact.',
    description:
      'Phone numbers are unique within a workspace, compared in their normalized E.164 form. Update that contact instead, or retry with another number. In a `POST /v1/contacts/batch` result this code marks the entry that failed; the others are unaffected.',
  },
  E04056: {
    status: 409,
    type: 'conflict_error',
    name: 'ContactEmailTaken',
    message: 'The email address belongs to another contact.',
    description:
      'Email addresses are unique within a workspace, compared trimmed and lowercased, so `Ada@Example.com ` and `ada@example.com` are one address. Update that contact instead, or use another address.',
  },
  E04057: {
    status: 409,
    type: 'conflict_error',
    name: 'ContactExternalIdTaken',
    message: 'The external id belongs to another contact.',
    description:
      '`external_id` is unique within a workspace when set. Update the contact that has it, or clear it there first.',
  },
  E04058: {
    status: 409,
    type: 'conflict_error',
    name: 'ContactAmbiguousMatch',
    message: 'The entry matched more than one contact.',
    description:
      'A `POST /v1/contacts/batch` entry without `match_on` is matched on every identifier it carries; here they belong to different contacts (the message names them). Review those contacts, or set `match_on` to say which identifier decides.',
  },
  E06006: {
    status: 409,
    type: 'conflict_error',
    name: 'ContactPropertyExists',
    message: 'A contact property with this key already exists.',
    description:
      'Keys are unique within a workspace, archived properties included. Unarchive the existing one, or choose another key.',
  },
  E06007: {
    status: 409,
    type: 'conflict_error',
    name: 'ContactPropertyArchived',
    message: 'The contact property is already archived.',
    description: 'Archiving happens once; unarchive it with `POST .../unarchive` to use it again.',
  },
  E06008: {
    status: 409,
    type: 'conflict_error',
    name: 'ContactPropertyNotArchived',
    message: 'The contact property is not archived.',
    description: 'Only an archived property can be unarchived.',
  },
  E06009: {
    status: 409,
    type: 'conflict_error',
    name: 'ContactPropertyLimit',
    message: 'The workspace already has 200 contact properties.',
    description:
      'A workspace holds at most 200 contact properties, archived ones included (their keys stay reserved and their stored values readable).',
  },
} as const satisfies Record<string, ErrorDefinition>;

/** The codes by name, for throw sites: `new AppError(ContactErrors.ContactNotFound)`. */
export const ContactErrors = codesOf(ContactErrorCatalog);
