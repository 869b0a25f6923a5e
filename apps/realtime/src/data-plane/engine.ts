import { randomInt } from 'node:crypto';
import { channelKind, channelNameProblem, MEMBER_CHANNEL_PREFIX } from './names';
import { CloseCodes, LIMITS, ServerEvents } from './protocol';
import type { Frame } from './protocol';
import {
  realtimeConnections,
  realtimeDeliveryLatency,
  realtimeMessages,
  realtimeStalledClosed,
  realtimeSubscriptions,
} from './realtime-metrics';
import { channelKey, RemotePresence, splitKey } from './remote-presence';
import type { PresenceEntry } from './remote-presence';
import { authMatches, signedString } from './signatures';

/** A client connection as the engine sees it, whatever the transport. */
export interface ClientConnection {
  readonly id: string;
  readonly appId: string;
  readonly keyId: string;
  /** The key's secret, unsealed: channel authorizations are checked with it. */
  readonly secret: string;
  send(frame: Frame): void;
  close(code: number, reason: string): void;
  /** Bytes sent to the connection that the network has not taken yet. */
  unsentBytes(): number;
  /** Closes a connection whose reader stalled, without waiting for it to read what is queued. */
  drop(code: number, reason: string): void;
  /**
   * Connections of one `group` are written together (socket.io: one room per channel, the frame
   * encoded once for all its sockets): the engine keeps the connection in a room per channel it
   * subscribes to, and a broadcast is one `sendRoom` per group, whatever its size.
   */
  readonly together?: ConnectionGroup & { address: string };
}

/** A transport's connections that a broadcast reaches at once, by room. */
export interface ConnectionGroup {
  group: object;
  join(room: string): void;
  leave(room: string): void;
  /** Sends to the group's connections in `room`, but the one at `except`. */
  sendRoom: (room: string, frame: Frame, except?: string) => void;
}

interface Member {
  id: string;
  info?: unknown;
}

interface ConnectionState {
  connection: ClientConnection;
  channels: Set<string>;
  /** The member this connection signed in as. */
  member?: Member;
  /** Per presence channel, the member this connection joined as. */
  presence: Map<string, Member>;
  /** Client events sent in the current second (`clientEventAllowed`). */
  clientEvents: { second: number; count: number };
}

interface PresenceMember {
  info?: unknown;
  connections: Set<string>;
}

interface ChannelState {
  subscribers: Set<string>;
  /** Subscribers written one by one. */
  single: Set<string>;
  /** Subscribers written by room, counted per group. */
  groups: Map<object, { members: number; sendRoom: ConnectionGroup['sendRoom'] }>;
  /** Presence channels: members by id, each with the connections it joined through. */
  members: Map<string, PresenceMember>;
}

/** One process's view of a channel, merged across processes by the cluster. */
export interface LocalChannel {
  name: string;
  connections: number;
  members: string[];
}

/** A member's first connection on this process joined a presence channel, or its last one left. */
export type PresenceChange = { kind: 'join' | 'leave' } & PresenceEntry;

/** A subscription refused: the SDK's `subscription_error` data. */
export class SubscriptionRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * Channels, subscriptions and presence of the connections of this process, for both transports
 * (the official client's WebSocket and socket.io carry the same frames). Presence is per member,
 * not per connection and across processes: `member_added` goes out when a member's first
 * connection anywhere joins and `member_removed` when its last one anywhere leaves. What the
 * other processes hold comes from the cluster (`remoteJoined`, `remoteLeft`, `replaceRemote`),
 * and this process's own changes go to it through `onPresenceChange`.
 */
export class RealtimeEngine {
  /** This process among the realtime processes; the first half of its connection ids. */
  readonly processTag = randomInt(1, 2 ** 31).toString();
  private readonly connections = new Map<string, ConnectionState>();
  private readonly channels = new Map<string, ChannelState>();
  private readonly remote = new RemotePresence();
  private presenceListener: (change: PresenceChange) => void = () => undefined;
  private sequence = 0;
  /** Connections over the unsent limit at the last `closeStalled`. */
  private readonly backlogged = new Set<string>();

  onPresenceChange(listener: (change: PresenceChange) => void): void {
    this.presenceListener = listener;
  }

  /** A connection id as the SDK expects it: `<number>.<number>`. */
  newConnectionId(): string {
    this.sequence += 1;
    return `${this.processTag}.${this.sequence}`;
  }

  open(connection: ClientConnection): void {
    realtimeConnections.inc();
    this.connections.set(connection.id, {
      connection,
      channels: new Set(),
      presence: new Map(),
      clientEvents: { second: 0, count: 0 },
    });
    connection.send({
      event: ServerEvents.ConnectionEstablished,
      data: { connection_id: connection.id, activity_timeout: LIMITS.activityTimeoutSeconds },
    });
  }

  /** The socket is gone: its subscriptions and presence go with it. */
  closed(connectionId: string): void {
    const state = this.connections.get(connectionId);
    if (!state) return;
    for (const channel of [...state.channels]) this.leave(state, channel);
    this.connections.delete(connectionId);
    this.backlogged.delete(connectionId);
    realtimeConnections.dec();
  }

  /**
   * `bird:subscribe`: public channels need nothing, private and presence ones a signature of
   * this connection's id and the channel (and member data) by the app's key; the member channel
   * only the member signed in on this connection. Throws `SubscriptionRefused`.
   */
  subscribe(connectionId: string, data: unknown): void {
    const state = this.connections.get(connectionId);
    if (!state) return;
    const request = (data ?? {}) as { channel?: unknown; auth?: unknown; member_data?: unknown };
    const problem = channelNameProblem(request.channel);
    if (problem) throw new SubscriptionRefused(problem, 400);
    const channel = request.channel as string;
    if (state.channels.has(channel)) return this.succeeded(state, channel);
    if (state.channels.size >= LIMITS.subscriptionsPerConnection)
      throw new SubscriptionRefused(
        `a connection holds at most ${LIMITS.subscriptionsPerConnection} subscriptions`,
        400,
      );
    const { connection } = state;
    const kind = channelKind(channel);
    let member: Member | undefined;
    if (kind === 'member') {
      if (state.member?.id !== channel.slice(MEMBER_CHANNEL_PREFIX.length))
        throw new SubscriptionRefused('sign in as this member first', 403);
    } else if (kind !== 'public') {
      const memberData = kind === 'presence' ? request.member_data : undefined;
      if (kind === 'presence' && typeof memberData !== 'string')
        throw new SubscriptionRefused('a presence channel needs member_data', 400);
      const signed = signedString(connection.id, {
        channel,
        memberData: memberData as string | undefined,
      });
      if (!authMatches(request.auth, connection.keyId, connection.secret, signed))
        throw new SubscriptionRefused('the channel authorization does not match', 401);
      if (kind === 'presence') member = parseMember(memberData as string);
    }
    const target = this.channel(connection.appId, channel);
    if (
      member &&
      !target.members.has(member.id) &&
      !this.remote.has(connection.appId, channel, member.id) &&
      this.presentMembers(connection.appId, channel).size >= LIMITS.membersPerPresenceChannel
    )
      throw new SubscriptionRefused(
        `a presence channel holds at most ${LIMITS.membersPerPresenceChannel} members`,
        400,
      );
    state.channels.add(channel);
    realtimeSubscriptions.inc();
    target.subscribers.add(connection.id);
    const { together } = connection;
    if (together) {
      together.join(channelKey(connection.appId, channel));
      const group = target.groups.get(together.group);
      if (group) group.members += 1;
      else target.groups.set(together.group, { members: 1, sendRoom: together.sendRoom });
    } else target.single.add(connection.id);
    if (member) {
      state.presence.set(channel, member);
      const present = target.members.get(member.id);
      if (present) present.connections.add(connection.id);
      else {
        target.members.set(member.id, { info: member.info, connections: new Set([connection.id]) });
        if (!this.remote.has(connection.appId, channel, member.id))
          this.memberAdded(connection.appId, channel, member, connection.id);
        this.presenceListener({
          kind: 'join',
          appId: connection.appId,
          channel,
          memberId: member.id,
          ...(member.info === undefined ? {} : { info: member.info }),
        });
      }
    }
    this.succeeded(state, channel);
  }

  unsubscribe(connectionId: string, data: unknown): void {
    const state = this.connections.get(connectionId);
    const channel = (data as { channel?: unknown } | undefined)?.channel;
    if (state && typeof channel === 'string') this.leave(state, channel);
  }

  /** `bird:signin`: the member data signed by the app's key for this connection. */
  signin(connectionId: string, data: unknown): Member {
    const state = this.connections.get(connectionId);
    if (!state) throw new SubscriptionRefused('no such connection', 400);
    const request = (data ?? {}) as { auth?: unknown; member_data?: unknown };
    if (typeof request.member_data !== 'string')
      throw new SubscriptionRefused('sign-in needs member_data', 400);
    const signed = signedString(state.connection.id, { signinMemberData: request.member_data });
    if (!authMatches(request.auth, state.connection.keyId, state.connection.secret, signed))
      throw new SubscriptionRefused('the sign-in authorization does not match', 401);
    const member = parseMember(request.member_data);
    // A member channel names its member: an id it cannot hold could sign in, never be reached.
    if (member.id.length > MEMBER_ID_LENGTH)
      throw new SubscriptionRefused(
        `a signed-in member_id has at most ${MEMBER_ID_LENGTH} characters`,
        400,
      );
    // Signed in as someone else now: the previous member's events stop reaching this connection.
    if (state.member && state.member.id !== member.id)
      this.leave(state, `${MEMBER_CHANNEL_PREFIX}${state.member.id}`);
    state.member = member;
    return member;
  }

  /** Counts a client event against the connection's allowance per second (as Pusher's). */
  clientEventAllowed(connectionId: string): boolean {
    const state = this.connections.get(connectionId);
    if (!state) return false;
    const second = Math.floor(Date.now() / 1000);
    const spent = state.clientEvents;
    if (spent.second !== second) Object.assign(spent, { second, count: 0 });
    spent.count += 1;
    return spent.count <= LIMITS.clientEventsPerSecond;
  }

  isSubscribed(connectionId: string, channel: string): boolean {
    return this.connections.get(connectionId)?.channels.has(channel) ?? false;
  }

  /** Delivers an event to every subscriber of each channel (but `excludeConnectionId`). */
  publish(
    appId: string,
    channels: readonly string[],
    event: string,
    data: unknown,
    excludeConnectionId?: string,
  ): void {
    const started = process.hrtime.bigint();
    for (const channel of channels)
      this.broadcast(appId, channel, { event, channel, data }, excludeConnectionId);
    realtimeDeliveryLatency.observe(Number(process.hrtime.bigint() - started) / 1e9);
  }

  /** This process's share of the app's occupied channels: subscribers, and presence members. */
  localChannels(appId: string, prefix = ''): LocalChannel[] {
    const head = channelKey(appId, '');
    const found: LocalChannel[] = [];
    for (const [name, state] of this.channels) {
      if (!name.startsWith(head) || state.subscribers.size === 0) continue;
      const channel = name.slice(head.length);
      if (!channel.startsWith(prefix) || channelKind(channel) === 'member') continue;
      found.push({
        name: channel,
        connections: state.subscribers.size,
        members: [...state.members.keys()],
      });
    }
    return found;
  }

  /** Closes every connection signed in as the member (`members.disconnect`). */
  disconnectMember(appId: string, memberId: string, code: number): number {
    return this.closeWhere(
      (connection) =>
        connection.appId === appId && this.connections.get(connection.id)?.member?.id === memberId,
      code,
      'the member was disconnected',
    );
  }

  /**
   * Closes the connections whose unsent bytes were over the limit at this check and the one
   * before (called once a second): a reader that stopped reading. One over it only once is a
   * burst the network is still taking. Answers how many were closed.
   */
  closeStalled(): number {
    let closed = 0;
    for (const [id, state] of this.connections) {
      if (state.connection.unsentBytes() <= LIMITS.unsentBytesPerConnection) {
        this.backlogged.delete(id);
      } else if (!this.backlogged.has(id)) {
        this.backlogged.add(id);
      } else {
        this.closed(id);
        state.connection.drop(CloseCodes.OverCapacity, 'the client is not reading its events');
        realtimeStalledClosed.inc();
        closed += 1;
      }
    }
    return closed;
  }

  /** Closes every connection the key opened (a revoked key). */
  closeByKey(keyId: string, code: number, reason: string): number {
    return this.closeWhere((connection) => connection.keyId === keyId, code, reason);
  }

  /** Closes every connection of the app (a deleted app). */
  closeByApp(appId: string): number {
    return this.closeWhere(
      (connection) => connection.appId === appId,
      CloseCodes.AppGone,
      'the app was deleted',
    );
  }

  private closeWhere(
    match: (c: ClientConnection) => boolean,
    code: number,
    reason: string,
  ): number {
    let closed = 0;
    for (const state of [...this.connections.values()]) {
      if (!match(state.connection)) continue;
      this.closed(state.connection.id);
      state.connection.close(code, reason);
      closed += 1;
    }
    return closed;
  }

  /** Another process's member joined: news here only if no process held it before. */
  remoteJoined(process: string, entry: PresenceEntry): void {
    const local = this.localMember(entry.appId, entry.channel, entry.memberId);
    if (this.remote.add(process, entry) && !local)
      this.memberAdded(entry.appId, entry.channel, { id: entry.memberId, info: entry.info });
  }

  /** Another process's member left: news here only if no process holds it any more. */
  remoteLeft(process: string, entry: PresenceEntry): void {
    const local = this.localMember(entry.appId, entry.channel, entry.memberId);
    if (this.remote.remove(process, entry.appId, entry.channel, entry.memberId) && !local)
      this.memberRemoved(entry.appId, entry.channel, entry.memberId);
  }

  /** What `process` holds, as its snapshot says (`[]`: the process is gone). */
  replaceRemote(process: string, entries: readonly PresenceEntry[]): void {
    const { added, removed } = this.remote.replace(process, entries);
    for (const entry of added)
      if (!this.localMember(entry.appId, entry.channel, entry.memberId))
        this.memberAdded(entry.appId, entry.channel, { id: entry.memberId, info: entry.info });
    for (const entry of removed)
      if (!this.localMember(entry.appId, entry.channel, entry.memberId))
        this.memberRemoved(entry.appId, entry.channel, entry.memberId);
  }

  /** Every presence member this process holds: its snapshot for the other processes. */
  localPresence(): PresenceEntry[] {
    const entries: PresenceEntry[] = [];
    for (const [name, state] of this.channels) {
      const [appId, channel] = splitKey(name);
      for (const [memberId, member] of state.members)
        entries.push({
          appId,
          channel,
          memberId,
          ...(member.info === undefined ? {} : { info: member.info }),
        });
    }
    return entries;
  }

  private localMember(appId: string, channel: string, memberId: string): boolean {
    return this.channels.get(channelKey(appId, channel))?.members.has(memberId) ?? false;
  }

  /** The channel's members on every process, with their info. */
  private presentMembers(appId: string, channel: string): Map<string, unknown> {
    const present = new Map<string, unknown>();
    for (const [id, member] of this.remote.members(appId, channel)) present.set(id, member.info);
    for (const [id, member] of this.channels.get(channelKey(appId, channel))?.members ?? [])
      present.set(id, member.info);
    return present;
  }

  private memberAdded(appId: string, channel: string, member: Member, except?: string): void {
    this.broadcast(
      appId,
      channel,
      {
        event: ServerEvents.MemberAdded,
        channel,
        data: { member_id: member.id, member_info: member.info },
      },
      except,
    );
  }

  private memberRemoved(appId: string, channel: string, memberId: string): void {
    this.broadcast(appId, channel, {
      event: ServerEvents.MemberRemoved,
      channel,
      data: { member_id: memberId },
    });
  }

  private succeeded(state: ConnectionState, channel: string): void {
    const members =
      channelKind(channel) === 'presence'
        ? this.presentMembers(state.connection.appId, channel)
        : undefined;
    const data = members
      ? {
          presence: {
            ids: [...members.keys()],
            hash: Object.fromEntries([...members].map(([id, info]) => [id, info ?? null])),
            count: members.size,
          },
        }
      : {};
    state.connection.send({ event: ServerEvents.SubscriptionSucceeded, channel, data });
  }

  private leave(state: ConnectionState, channel: string): void {
    if (!state.channels.delete(channel)) return;
    realtimeSubscriptions.dec();
    const { appId, id } = state.connection;
    const target = this.channels.get(channelKey(appId, channel));
    if (!target) return;
    target.subscribers.delete(id);
    const { together } = state.connection;
    if (together) {
      together.leave(channelKey(appId, channel));
      const group = target.groups.get(together.group);
      if (group && --group.members === 0) target.groups.delete(together.group);
    } else target.single.delete(id);
    const member = state.presence.get(channel);
    state.presence.delete(channel);
    if (member) {
      const present = target.members.get(member.id);
      present?.connections.delete(id);
      if (present && present.connections.size === 0) {
        target.members.delete(member.id);
        if (!this.remote.has(appId, channel, member.id))
          this.memberRemoved(appId, channel, member.id);
        this.presenceListener({ kind: 'leave', appId, channel, memberId: member.id });
      }
    }
    if (target.subscribers.size === 0) this.channels.delete(channelKey(appId, channel));
  }

  private channel(appId: string, channel: string): ChannelState {
    const name = channelKey(appId, channel);
    let state = this.channels.get(name);
    if (!state) {
      state = { subscribers: new Set(), single: new Set(), groups: new Map(), members: new Map() };
      this.channels.set(name, state);
    }
    return state;
  }

  private broadcast(appId: string, channel: string, frame: Frame, except?: string): void {
    const key = channelKey(appId, channel);
    const target = this.channels.get(key);
    if (!target) return;
    const excepted = except !== undefined && target.subscribers.has(except);
    const exceptTogether = excepted ? this.connections.get(except)?.connection.together : undefined;
    for (const id of target.single)
      if (id !== except) this.connections.get(id)?.connection.send(frame);
    for (const [group, { sendRoom }] of target.groups)
      sendRoom(key, frame, exceptTogether?.group === group ? exceptTogether.address : undefined);
    realtimeMessages.inc({ direction: 'out' }, target.subscribers.size - (excepted ? 1 : 0));
  }
}

/** The longest member id a member channel (`#server-to-user-{member_id}`) can name. */
const MEMBER_ID_LENGTH = LIMITS.channelNameLength - MEMBER_CHANNEL_PREFIX.length;

/** `member_data`: a JSON object with a `member_id` (string or number) and optional `member_info`. */
function parseMember(memberData: string): Member {
  if (Buffer.byteLength(memberData) > LIMITS.memberDataBytes)
    throw new SubscriptionRefused(`member_data has at most ${LIMITS.memberDataBytes} bytes`, 400);
  let parsed: unknown;
  try {
    parsed = JSON.parse(memberData);
  } catch {
    throw new SubscriptionRefused('member_data must be a JSON object', 400);
  }
  const { member_id: id, member_info: info } = (parsed ?? {}) as Record<string, unknown>;
  if ((typeof id !== 'string' || id.length === 0) && typeof id !== 'number')
    throw new SubscriptionRefused('member_data needs a member_id', 400);
  return { id: String(id), ...(info === undefined ? {} : { info }) };
}
