import type { Page } from '../pagination';
import type { Rpc } from '../rpc';
import type { VoiceSubjects } from './voice';
import type {
  ListVoiceCallsRequest,
  ReportVoiceCallReply,
  ReportVoiceCallRequest,
  VoiceCall,
  VoiceCallIdRequest,
} from './voice';

/** The voice call record operations of the sms-whatsapp service, by subject. */
export interface VoiceRpc {
  [VoiceSubjects.ListCalls]: Rpc<ListVoiceCallsRequest, Page<VoiceCall>>;
  [VoiceSubjects.GetCall]: Rpc<VoiceCallIdRequest, VoiceCall>;
  [VoiceSubjects.ReportCall]: Rpc<ReportVoiceCallRequest, ReportVoiceCallReply>;
}
