import type { Rpc } from '../rpc';
import type {
  Verification,
  VerificationCheckResult,
  VerifySubjects,
  VerifyVerificationsCheckParams,
  VerifyVerificationsCreateParams,
  VerifyVerificationsNextChannelParams,
} from './verify';

/** The verify-lookup-preferences service's verifications, by subject. */
export interface VerifyRpc {
  [VerifySubjects.Create]: Rpc<VerifyVerificationsCreateParams, Verification>;
  [VerifySubjects.Check]: Rpc<VerifyVerificationsCheckParams, VerificationCheckResult>;
  [VerifySubjects.NextChannel]: Rpc<VerifyVerificationsNextChannelParams, Verification>;
}
