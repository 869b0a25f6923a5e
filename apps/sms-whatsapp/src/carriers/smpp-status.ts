/** How a `submit_sm_resp` `command_status` other than ESME_ROK is handled. */
export interface CommandStatusClass {
  /** The SMPP name (`ESME_RINVDSTADR`), or `0x...` for a vendor-specific value. */
  name: string;
  /** Retried (by the pipeline, with back-off) rather than failing the message. */
  temporary: boolean;
  /** The normalised `last_error.code` when it fails the message. */
  code: string;
}

export const ESME_ROK = 0x00;
export const ESME_RMSGQFUL = 0x14;
export const ESME_RTHROTTLED = 0x58;
export const ESME_RINVTLVSTREAM = 0xc0;
export const ESME_RX_T_APPN = 0x64;
export const ESME_RX_P_APPN = 0x65;

/** Statuses that pause the whole bind and resend the same PDU first (order kept). */
export const THROTTLING_STATUSES: ReadonlySet<number> = new Set([ESME_RMSGQFUL, ESME_RTHROTTLED]);

type Row = [name: string, temporary: boolean, code: string];

/** SMPP 3.4 section 5.1.3 (and 5.0's additions), the values carriers answer to submit_sm. */
const STATUSES: Record<number, Row> = {
  0x01: ['ESME_RINVMSGLEN', false, 'content_rejected'],
  0x02: ['ESME_RINVCMDLEN', false, 'unknown'],
  0x03: ['ESME_RINVCMDID', false, 'unknown'],
  0x04: ['ESME_RINVBNDSTS', true, 'provider_unavailable'],
  0x05: ['ESME_RALYBND', true, 'provider_unavailable'],
  0x06: ['ESME_RINVPRTFLG', false, 'unknown'],
  0x07: ['ESME_RINVREGDLVFLG', false, 'unknown'],
  0x08: ['ESME_RSYSERR', true, 'provider_unavailable'],
  0x0a: ['ESME_RINVSRCADR', false, 'sender_unregistered'],
  0x0b: ['ESME_RINVDSTADR', false, 'invalid_destination'],
  0x0c: ['ESME_RINVMSGID', false, 'unknown'],
  0x0d: ['ESME_RBINDFAIL', true, 'provider_unavailable'],
  0x0e: ['ESME_RINVPASWD', true, 'provider_unavailable'],
  0x0f: ['ESME_RINVSYSID', true, 'provider_unavailable'],
  0x14: ['ESME_RMSGQFUL', true, 'provider_unavailable'],
  0x15: ['ESME_RINVSERTYP', false, 'unknown'],
  0x33: ['ESME_RINVNUMDESTS', false, 'invalid_destination'],
  0x34: ['ESME_RINVDLNAME', false, 'invalid_destination'],
  0x40: ['ESME_RINVDESTFLAG', false, 'invalid_destination'],
  0x42: ['ESME_RINVSUBREP', false, 'unknown'],
  0x43: ['ESME_RINVESMCLASS', false, 'content_rejected'],
  0x44: ['ESME_RCNTSUBDL', false, 'unknown'],
  0x45: ['ESME_RSUBMITFAIL', true, 'provider_unavailable'],
  0x48: ['ESME_RINVSRCTON', false, 'sender_unregistered'],
  0x49: ['ESME_RINVSRCNPI', false, 'sender_unregistered'],
  0x50: ['ESME_RINVDSTTON', false, 'invalid_destination'],
  0x51: ['ESME_RINVDSTNPI', false, 'invalid_destination'],
  0x53: ['ESME_RINVSYSTYP', true, 'provider_unavailable'],
  0x54: ['ESME_RINVREPFLAG', false, 'unknown'],
  0x55: ['ESME_RINVNUMMSGS', false, 'unknown'],
  0x58: ['ESME_RTHROTTLED', true, 'provider_unavailable'],
  0x61: ['ESME_RINVSCHED', false, 'unknown'],
  0x62: ['ESME_RINVEXPIRY', false, 'unknown'],
  0x63: ['ESME_RINVDFTMSGID', false, 'content_rejected'],
  0x64: ['ESME_RX_T_APPN', true, 'provider_unavailable'],
  0x65: ['ESME_RX_P_APPN', false, 'blocked_by_carrier'],
  0x66: ['ESME_RX_R_APPN', false, 'blocked_by_carrier'],
  0x67: ['ESME_RQUERYFAIL', false, 'unknown'],
  0xc0: ['ESME_RINVTLVSTREAM', false, 'content_rejected'],
  0xc1: ['ESME_RTLVNOTALLWD', false, 'content_rejected'],
  0xc2: ['ESME_RINVTLVLEN', false, 'content_rejected'],
  0xc3: ['ESME_RMISSINGTLV', false, 'content_rejected'],
  0xc4: ['ESME_RINVTLVVAL', false, 'content_rejected'],
  0xfe: ['ESME_RDELIVERYFAILURE', false, 'unknown'],
  0xff: ['ESME_RUNKNOWNERR', true, 'unknown'],
};

/**
 * Classifies a `command_status`. Unlisted values (reserved ones, and the vendor range
 * 0x400-0x4FF whose meaning only the carrier's documentation knows) fail the message as
 * `unknown` rather than being retried forever.
 */
export function classifyCommandStatus(status: number): CommandStatusClass {
  const row = STATUSES[status];
  if (row) return { name: row[0], temporary: row[1], code: row[2] };
  return { name: `0x${status.toString(16).padStart(8, '0')}`, temporary: false, code: 'unknown' };
}
