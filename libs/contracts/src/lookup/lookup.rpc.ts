import type { Rpc } from '../rpc';
import type {
  EmailLookup,
  LookupEmailParams,
  LookupPhoneNumberParams,
  LookupSubjects,
  PhoneNumberLookup,
} from './lookup';

/** The verify-lookup-preferences service's lookups, by subject. */
export interface LookupRpc {
  [LookupSubjects.PhoneNumber]: Rpc<LookupPhoneNumberParams, PhoneNumberLookup>;
  [LookupSubjects.Email]: Rpc<LookupEmailParams, EmailLookup>;
}
