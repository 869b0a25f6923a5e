/**
 * The client protocol of `@messagebird/realtime` (contract section 5): JSON frames
 * `{event, channel?, data?}`; the server sends `data` JSON-encoded as a string, the client sends
 * it as a value. `bird:` events are the connection's, `bird_internal:` ones the SDK consumes.
 */
export const ClientEvents = {
  Subscribe: 'bird:subscribe',
  Unsubscribe: 'bird:unsubscribe',
  Ping: 'bird:ping',
  Pong: 'bird:pong',
  Signin: 'bird:signin',
} as const;

export const ServerEvents = {
  ConnectionEstablished: 'bird:connection_established',
  Error: 'bird:error',
  Ping: 'bird:ping',
  Pong: 'bird:pong',
  SigninSuccess: 'bird:signin_success',
  SubscriptionSucceeded: 'bird_internal:subscription_succeeded',
  SubscriptionError: 'bird_internal:subscription_error',
  MemberAdded: 'bird_internal:member_added',
  MemberRemoved: 'bird_internal:member_removed',
} as const;

/** Close codes: 4000-4099 refuse and the client does not retry; 4009 ends a member's sessions. */
export const CloseCodes = {
  /** The app key is unknown, revoked, or its app is gone. */
  KeyRefused: 4001,
  /** The app was deleted while connected. */
  AppGone: 4003,
  /** A server-side disconnect of the signed-in member. */
  MemberTerminated: 4009,
  /**
   * Over capacity (Pusher's 4100: reconnect after backing off): the client stopped reading, and
   * what it was sent piled up past `LIMITS.unsentBytesPerConnection`.
   */
  OverCapacity: 4100,
  /** Nothing heard within the activity time-out after a ping. */
  ActivityTimeout: 4201,
} as const;

export const LIMITS = {
  /** Seconds of silence after which either side pings (sent in the handshake). */
  activityTimeoutSeconds: 120,
  /** A frame from a client, in bytes. */
  frameBytes: 10_240,
  /** Serialized `data` of a published event (SDK: 10 KB). */
  eventDataBytes: 10_240,
  channelNameLength: 164,
  eventNameLength: 200,
  channelsPerPublish: 100,
  eventsPerBatch: 10,
  subscriptionsPerConnection: 100,
  membersPerPresenceChannel: 100,
  memberDataBytes: 1_000,
  /** Client events a connection may send per second; more get an error frame and go nowhere. */
  clientEventsPerSecond: 10,
  /**
   * Bytes a connection may leave unread (held by the server after the kernel's buffers filled)
   * at two checks a second apart before it is closed: a stalled reader would otherwise hold
   * every event it is sent in the server's memory. Centrifugo's default queue limit.
   */
  unsentBytesPerConnection: 1_048_576,
} as const;

/**
 * How long a connection closed for not reading may take to read its close frame before its
 * socket is destroyed (and what was queued for it freed).
 */
export const DROP_GRACE_MS = 1_000;

export interface Frame {
  event: string;
  channel?: string;
  data?: unknown;
}

/**
 * A frame as the server writes it (`data` as a JSON string), as an object. One publish hands the
 * same frame to every subscriber: it is serialized once, not once per connection.
 */
const wireObjects = new WeakMap<Frame, { event: string; channel?: string; data?: string }>();
const wireTexts = new WeakMap<Frame, string>();

export function wireFrame(frame: Frame): { event: string; channel?: string; data?: string } {
  let wire = wireObjects.get(frame);
  if (!wire) {
    wire = { event: frame.event };
    if (frame.channel !== undefined) wire.channel = frame.channel;
    if (frame.data !== undefined) wire.data = JSON.stringify(frame.data);
    wireObjects.set(frame, wire);
  }
  return wire;
}

/** `wireFrame` as JSON text, for the WebSocket. */
export function encodeFrame(frame: Frame): string {
  let text = wireTexts.get(frame);
  if (text === undefined) {
    text = JSON.stringify(wireFrame(frame));
    wireTexts.set(frame, text);
  }
  return text;
}

/** A client's frame, or undefined when it is not one (the caller answers with an error frame). */
export function decodeFrame(raw: string): Frame | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { event, channel, data } = parsed as Record<string, unknown>;
  if (typeof event !== 'string' || event.length === 0) return undefined;
  if (channel !== undefined && typeof channel !== 'string') return undefined;
  let value = data;
  if (typeof data === 'string') {
    try {
      value = JSON.parse(data);
    } catch {
      value = data;
    }
  }
  return { event, ...(channel === undefined ? {} : { channel }), data: value };
}

/** `bird:error` data: a code in 4000-4299 and a message a developer can act on. */
export function errorFrame(code: number, message: string): Frame {
  return { event: ServerEvents.Error, data: { code, message } };
}
