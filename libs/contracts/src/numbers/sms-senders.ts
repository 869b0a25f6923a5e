/**
 * Alphanumeric SMS senders the operator registers for a workspace (contract section 9): a
 * workspace may send `from` one of them besides the numbers it holds. Served by sms-whatsapp.
 */
export const SmsSenderSubjects = {
  RegisterSender: 'sms_whatsapp.sms_sender.register',
  ListSenders: 'sms_whatsapp.sms_sender.list',
  DeleteSender: 'sms_whatsapp.sms_sender.delete',
} as const;

/** The SMS categories a sender may be limited to (null = all of them). */
export const SMS_SENDER_CATEGORIES = [
  'transactional',
  'marketing',
  'authentication',
  'service',
] as const;
export type SmsSenderCategory = (typeof SMS_SENDER_CATEGORIES)[number];

/** GSM practice: 1 to 11 characters, letters, digits and spaces, at least one letter. */
export const SMS_SENDER_PATTERN = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/;

export interface SmsSender {
  id: string;
  workspace_id: string;
  sender: string;
  /** The categories it may send; null = every category. */
  categories: SmsSenderCategory[] | null;
  created_at: string;
}

export interface RegisterSmsSenderRequest {
  workspace_id: string;
  sender: string;
  categories?: string[];
}

export interface ListSmsSendersRequest {
  workspace_id: string;
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

export interface SmsSenderIdRequest {
  workspace_id: string;
  sender_id: string;
}
