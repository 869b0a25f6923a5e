import type { Page, PageRequest } from '../pagination';
import type { IdRequest, NoContent, Rpc } from '../rpc';
import type { ContactSubjects } from './contacts';
import type {
  Audience,
  AudienceMember,
  AudienceSnapshotPage,
  AudienceMembersRequest,
  Contact,
  ContactFields,
  ContactProperty,
  ContactUpsertResultItem,
  CreateAudienceRequest,
  CreateContactPropertyRequest,
  ListAudienceMembersRequest,
  ListAudiencesRequest,
  ListContactsRequest,
  SnapshotAudienceMembersRequest,
  UpdateAudienceRequest,
  UpdateContactPropertyRequest,
  UpdateContactRequest,
  UpsertContactsRequest,
} from './contacts';

export type ContactIdRequest = IdRequest<'contact_id'>;
export type ContactPropertyIdRequest = IdRequest<'property_id'>;
export type AudienceIdRequest = IdRequest<'audience_id'>;
export type CreateContactRequest = { fields: ContactFields };

/** The workspace-objects service's contact, contact-property and audience operations. */
export interface ContactsRpc {
  [ContactSubjects.ListContacts]: Rpc<ListContactsRequest, Page<Contact>>;
  [ContactSubjects.CreateContact]: Rpc<CreateContactRequest, Contact>;
  [ContactSubjects.UpsertContacts]: Rpc<UpsertContactsRequest, { data: ContactUpsertResultItem[] }>;
  [ContactSubjects.GetContact]: Rpc<ContactIdRequest, Contact>;
  [ContactSubjects.UpdateContact]: Rpc<UpdateContactRequest, Contact>;
  [ContactSubjects.DeleteContact]: Rpc<ContactIdRequest, NoContent>;
  [ContactSubjects.ListProperties]: Rpc<PageRequest, Page<ContactProperty>>;
  [ContactSubjects.CreateProperty]: Rpc<CreateContactPropertyRequest, ContactProperty>;
  [ContactSubjects.GetProperty]: Rpc<ContactPropertyIdRequest, ContactProperty>;
  [ContactSubjects.UpdateProperty]: Rpc<UpdateContactPropertyRequest, ContactProperty>;
  [ContactSubjects.ArchiveProperty]: Rpc<ContactPropertyIdRequest, ContactProperty>;
  [ContactSubjects.UnarchiveProperty]: Rpc<ContactPropertyIdRequest, ContactProperty>;
  [ContactSubjects.ListAudiences]: Rpc<ListAudiencesRequest, Page<Audience>>;
  [ContactSubjects.CreateAudience]: Rpc<CreateAudienceRequest, Audience>;
  [ContactSubjects.GetAudience]: Rpc<AudienceIdRequest, Audience>;
  [ContactSubjects.UpdateAudience]: Rpc<UpdateAudienceRequest, Audience>;
  [ContactSubjects.DeleteAudience]: Rpc<AudienceIdRequest, NoContent>;
  [ContactSubjects.ListMembers]: Rpc<ListAudienceMembersRequest, Page<AudienceMember>>;
  [ContactSubjects.AddMembers]: Rpc<AudienceMembersRequest, NoContent>;
  [ContactSubjects.RemoveMembers]: Rpc<AudienceMembersRequest, NoContent>;
  [ContactSubjects.RemoveMember]: Rpc<IdRequest<'audience_id' | 'contact_id'>, NoContent>;
  [ContactSubjects.SnapshotMembers]: Rpc<SnapshotAudienceMembersRequest, AudienceSnapshotPage>;
}
