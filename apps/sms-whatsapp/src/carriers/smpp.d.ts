/**
 * Types for the `smpp` package (0.5.1 has none and there is no @types/smpp): only what the
 * carrier layer and the test SMSC use. A PDU's fields are its command's parameters and TLVs by
 * their SMPP names; `short_message` is a Buffer once `keepRawShortMessages()` ran (see
 * `smpp-raw-bytes.ts`), which both sides call before the first PDU.
 */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  export interface PduFields {
    command_status?: number;
    sequence_number?: number;
    system_id?: string;
    password?: string;
    system_type?: string;
    interface_version?: number;
    service_type?: string;
    source_addr_ton?: number;
    source_addr_npi?: number;
    source_addr?: string;
    dest_addr_ton?: number;
    dest_addr_npi?: number;
    destination_addr?: string;
    esm_class?: number;
    protocol_id?: number;
    priority_flag?: number;
    registered_delivery?: number;
    validity_period?: string;
    data_coding?: number | null;
    short_message?: Buffer | string | { message: Buffer | string; udh?: Buffer[] };
    message_id?: string;
    receipted_message_id?: string;
    message_state?: number;
    message_payload?: Buffer;
    sar_msg_ref_num?: number;
    sar_total_segments?: number;
    sar_segment_seqnum?: number;
  }

  export class PDU implements PduFields {
    constructor(command: string, options?: PduFields);
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    system_id?: string;
    password?: string;
    system_type?: string;
    source_addr_ton?: number;
    source_addr_npi?: number;
    source_addr?: string;
    dest_addr_ton?: number;
    dest_addr_npi?: number;
    destination_addr?: string;
    esm_class?: number;
    registered_delivery?: number;
    /** Decoded by the package's time filter (a relative period as the instant it ends). */
    validity_period?: string | Date;
    data_coding?: number | null;
    short_message?: Buffer;
    message_id?: string;
    receipted_message_id?: string;
    message_state?: number;
    network_error_code?: Buffer;
    message_payload?: Buffer;
    sar_msg_ref_num?: number;
    sar_total_segments?: number;
    sar_segment_seqnum?: number;
    isResponse(): boolean;
    response(options?: PduFields): PDU;
    toBuffer(): Buffer;
  }

  export type PduCallback = (pdu: PDU) => void;

  export class Session extends EventEmitter {
    socket: Socket;
    send(pdu: PDU, responseCallback?: PduCallback, sendCallback?: PduCallback): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
    bind_transceiver(options: PduFields, responseCallback?: PduCallback): boolean;
    submit_sm(options: PduFields, responseCallback?: PduCallback): boolean;
    deliver_sm(options: PduFields, responseCallback?: PduCallback): boolean;
    enquire_link(options?: PduFields, responseCallback?: PduCallback): boolean;
    unbind(options?: PduFields, responseCallback?: PduCallback): boolean;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  export interface ConnectOptions {
    host: string;
    port: number;
    tls?: boolean;
    /** TLS only: as for `tls.connect`. */
    rejectUnauthorized?: boolean;
    servername?: string;
  }

  export function connect(options: ConnectOptions, listener?: () => void): Session;
  export function createServer(listener: (session: Session) => void): Server;

  export interface CommandParam {
    type: unknown;
    filter?: { encode(value: unknown): unknown; decode(value: unknown): unknown };
  }
  export const commands: Record<string, { id: number; params?: Record<string, CommandParam> }>;
  export const tlvs: Record<
    string,
    { id: number; filter?: { encode(value: unknown): unknown; decode(value: unknown): unknown } }
  >;
  export const errors: Record<string, number>;
}
