/**
 * Contacts, contact properties and audiences (reference section 3), answered by the
 * workspace-objects service. Shapes follow the SDK's `Contact`, `ContactUpsertResult`,
 * `ContactProperty`, `Audience` and `AudienceMember`.
 */

export const ContactSubjects = {
  ListContacts: 'workspace_objects.contact.list',
  CreateContact: 'workspace_objects.contact.create',
  UpsertContacts: 'workspace_objects.contact.batch',
  GetContact: 'workspace_objects.contact.get',
  UpdateContact: 'workspace_objects.contact.update',
  DeleteContact: 'workspace_objects.contact.delete',
  ListProperties: 'workspace_objects.contact_property.list',
  CreateProperty: 'workspace_objects.contact_property.create',
  GetProperty: 'workspace_objects.contact_property.get',
  UpdateProperty: 'workspace_objects.contact_property.update',
  ArchiveProperty: 'workspace_objects.contact_property.archive',
  UnarchiveProperty: 'workspace_objects.contact_property.unarchive',
  ListAudiences: 'workspace_objects.audience.list',
  CreateAudience: 'workspace_objects.audience.create',
  GetAudience: 'workspace_objects.audience.get',
  UpdateAudience: 'workspace_objects.audience.update',
  DeleteAudience: 'workspace_objects.audience.delete',
  ListMembers: 'workspace_objects.audience.members.list',
  AddMembers: 'workspace_objects.audience.members.add',
  RemoveMembers: 'workspace_objects.audience.members.remove',
  RemoveMember: 'workspace_objects.audience.member.remove',
  /** Internal (no route): an audience's members in contact-id order, for a broadcast's snapshot. */
  SnapshotMembers: 'workspace_objects.audience.members.snapshot',
} as const;

export const CONTACT_LIMITS = {
  emailLength: 254,
  /** A phone number as sent, punctuation included. */
  phoneInputLength: 32,
  nameLength: 100,
  externalIdLength: 254,
  dataStringLength: 500,
  /** The serialized `data` object, in bytes. */
  dataBytes: 2048,
  batchEntries: 1000,
  batchAudiences: 10,
  phoneFilterValues: 50,
  propertyKeyLength: 50,
  propertiesPerWorkspace: 200,
  audienceNameLength: 100,
  audienceDescriptionLength: 500,
  membersPerCall: 1000,
} as const;

export const CONTACT_PROPERTY_TYPES = ['string', 'number', 'boolean', 'datetime'] as const;
export type ContactPropertyType = (typeof CONTACT_PROPERTY_TYPES)[number];
export const CONTACT_MATCH_KEYS = ['email', 'phone_number', 'external_id'] as const;
export type ContactMatchKey = (typeof CONTACT_MATCH_KEYS)[number];

export interface AudienceRef {
  id: string;
  name: string;
}

export interface Contact {
  id: string;
  email: string | null;
  phone_number: string | null;
  first_name: string | null;
  last_name: string | null;
  external_id: string | null;
  data: Record<string, unknown>;
  /** List responses only, most recently joined first. */
  audiences?: AudienceRef[];
  created_at: string;
  updated_at: string;
}

/** What a create, update or batch entry carries, unchecked: the service applies every rule. */
export type ContactFields = Record<string, unknown>;

export interface ListContactsRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
  include_total?: boolean;
  email?: string;
  phone_number?: string[];
  external_id?: string;
  q?: string;
  identifier?: 'email' | 'phone_number';
}

export interface UpdateContactRequest {
  contact_id: string;
  changes: ContactFields;
}

export interface UpsertContactsRequest {
  contacts: ContactFields[];
  audience_ids?: string[];
  match_on?: ContactMatchKey;
  data_mode?: 'merge' | 'replace';
}

export interface ContactUpsertResultItem {
  entry: { email: string | null; phone_number: string | null; external_id: string | null };
  matched_on: ContactMatchKey | null;
  status: 'created' | 'updated' | 'failed';
  contact_id?: string;
  error?: { type: string; code: string; message: string };
}

export interface ContactProperty {
  id: string;
  key: string;
  type: ContactPropertyType;
  fallback_value: unknown;
  archived: boolean;
  created_at: string;
  updated_at: string;
}

export interface CreateContactPropertyRequest {
  key: string;
  type: ContactPropertyType;
  fallback_value?: unknown;
}

export interface UpdateContactPropertyRequest {
  property_id: string;
  /** Absent: unchanged; null: removed. */
  fallback_value?: unknown;
}

export interface Audience {
  id: string;
  name: string;
  description: string | null;
  type: 'static';
  created_at: string;
  updated_at: string;
}

export interface AudienceMember {
  contact: Contact;
  joined_at: string;
  audiences?: AudienceRef[];
}

export interface ListAudiencesRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
  q?: string;
}

export interface CreateAudienceRequest {
  name: string;
  description?: string;
}

export interface UpdateAudienceRequest {
  audience_id: string;
  name?: string;
  /** Absent: unchanged; null: cleared. */
  description?: string | null;
}

export interface ListAudienceMembersRequest extends ListAudiencesRequest {
  audience_id: string;
}

export interface AudienceMembersRequest {
  audience_id: string;
  contact_ids: string[];
}

/**
 * A page of an audience's members for a broadcast's snapshot, in contact-id order (keyset:
 * `after`). `joined_before` leaves out contacts that joined after the snapshot was taken, so a
 * resumed snapshot reads the same audience. Pages stay well under NATS's 1 MB payload: fewer
 * rows than `limit` come back when their fields are large (`next` says whether more follow).
 */
export interface SnapshotAudienceMembersRequest {
  audience_id: string;
  limit: number;
  after?: string;
  joined_before?: string;
  /** Whether to return each contact's fields (for personalisation), or only id and email. */
  with_fields: boolean;
}

export interface AudienceSnapshotMember {
  contact_id: string;
  email: string | null;
  /** With `with_fields` only. */
  contact?: Contact;
}

export interface AudienceSnapshotPage {
  data: AudienceSnapshotMember[];
  /** The `after` of the next page, or null when this page is the last. */
  next: string | null;
}
