import { timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { RealtimeErrors } from '@switchboard/contracts';
import type {
  ErrorDetail,
  GetRealtimeChannelRequest,
  ListRealtimeChannelsRequest,
  PublishRealtimeBatchRequest,
  PublishRealtimeEventRequest,
  RealtimeChannelCounts,
  RealtimeChannelInclude,
  RealtimeChannelListItem,
  RealtimeDataPlaneRequest,
  RealtimeMemberRequest,
  RequestContext,
  SendRealtimeMemberEventRequest,
} from '@switchboard/contracts';
import { IdempotentWrites } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { ClientKeys } from './client-keys';
import type { ActiveKey } from './client-keys';
import { RealtimeEngine } from './engine';
import { RealtimeCluster } from './realtime-cluster';
import { channelKind, channelNameProblem, eventNameProblem, MEMBER_CHANNEL_PREFIX } from './names';
import { CloseCodes, LIMITS } from './protocol';

/**
 * The REST data plane: publish, batch publish, channel occupancy and members, member events and
 * member disconnect, for the app whose key and secret the request carries. Publishes reach the
 * connections of this process's engine.
 */
@Injectable()
export class DataPlaneService {
  /**
   * A write delivers once per Idempotency-Key (`writes.runEffect`): with a key, the key is
   * claimed and the answer stored in one transaction around the delivery (a retry gets the
   * stored answer and delivers nothing); without one, nothing touches the database.
   */
  constructor(
    private readonly writes: IdempotentWrites,
    private readonly keys: ClientKeys,
    private readonly engine: RealtimeEngine,
    private readonly cluster: RealtimeCluster,
  ) {}

  async publish(context: RequestContext, input: PublishRealtimeEventRequest) {
    const key = await this.authorized(context, input);
    const details: ErrorDetail[] = [];
    checkEvent(input.event, 'event', details);
    const channels = [...new Set(input.channels)];
    if (channels.length === 0 || channels.length > LIMITS.channelsPerPublish)
      details.push({ param: 'channels', message: `1 to ${LIMITS.channelsPerPublish} channels` });
    channels.forEach((channel, index) => checkChannel(channel, `channels[${index}]`, details));
    if (channels.length > 1 && channels.some((channel) => channelKind(channel) === 'encrypted'))
      details.push({
        param: 'channels',
        message: 'a private-encrypted- channel must be the only channel of its publish',
      });
    checkData(input.data, 'data', details);
    if (details.length) throw AppError.validation(details);
    checkIncludes(input.include, channels, key, 'include');
    return this.writes.runEffect(context, async () => {
      await this.cluster.send({
        kind: 'publish',
        appId: key.appId,
        channels,
        event: input.event,
        data: input.data ?? null,
        excludeConnectionId: input.exclude_connection_id,
      });
      return input.include?.length ? { data: await this.counts(key, channels, input.include) } : {};
    });
  }

  /** Every event is checked before any is delivered: one bad item delivers nothing. */
  async publishBatch(context: RequestContext, input: PublishRealtimeBatchRequest) {
    const key = await this.authorized(context, input);
    const details: ErrorDetail[] = [];
    if (input.events.length === 0 || input.events.length > LIMITS.eventsPerBatch)
      details.push({ param: 'events', message: `1 to ${LIMITS.eventsPerBatch} events` });
    input.events.forEach((item, index) => {
      checkEvent(item.event, `events[${index}].event`, details);
      checkChannel(item.channel, `events[${index}].channel`, details);
      checkData(item.data, `events[${index}].data`, details);
    });
    if (details.length) throw AppError.validation(details);
    input.events.forEach((item, index) =>
      checkIncludes(item.include, [item.channel], key, `events[${index}].include`),
    );
    return this.writes.runEffect(context, async () => {
      for (const item of input.events)
        await this.cluster.send({
          kind: 'publish',
          appId: key.appId,
          channels: [item.channel],
          event: item.event,
          data: item.data ?? null,
          excludeConnectionId: item.exclude_connection_id,
        });
      const counted = input.events.filter((item) => item.include?.length);
      if (counted.length === 0) return {};
      const data = [];
      for (const item of counted) {
        const [{ name, ...counts }] = await this.counts(key, [item.channel], item.include ?? []);
        data.push({ channel: name, ...counts });
      }
      return { data };
    });
  }

  async listChannels(context: RequestContext, input: ListRealtimeChannelsRequest) {
    const key = await this.authorized(context, input);
    // The listed channels are those of the prefix: member counts need it to name presence ones.
    checkIncludes(input.include, [input.prefix ?? ''], key, 'include');
    const data: RealtimeChannelListItem[] = (
      await this.cluster.channels(key.appId, input.prefix ?? '')
    ).map((channel) => pick(channel.name, countsOf(channel), input.include ?? []));
    return { data };
  }

  async getChannel(context: RequestContext, input: GetRealtimeChannelRequest) {
    const key = await this.authorized(context, input);
    const details: ErrorDetail[] = [];
    checkChannel(input.channel_name, 'channel_name', details);
    if (details.length) throw AppError.validation(details);
    checkIncludes(input.include, [input.channel_name], key, 'include');
    const info = countsOf(await this.channel(key, input.channel_name));
    const counts = pick(input.channel_name, info, input.include ?? []);
    return {
      occupied: info.connection_count > 0,
      ...(counts.connection_count === undefined
        ? {}
        : { connection_count: counts.connection_count }),
      ...(counts.member_count === undefined ? {} : { member_count: counts.member_count }),
    };
  }

  async listMembers(context: RequestContext, input: GetRealtimeChannelRequest) {
    const key = await this.authorized(context, input);
    if (channelKind(input.channel_name) !== 'presence')
      throw AppError.validation([
        { param: 'channel_name', message: 'members exist on presence- channels only' },
      ]);
    const channel = await this.channel(key, input.channel_name);
    return { members: [...(channel?.members ?? [])].map((id) => ({ member_id: id })) };
  }

  /** Best effort, never queued: the member's connections open now get it. */
  async sendMemberEvent(
    context: RequestContext,
    input: SendRealtimeMemberEventRequest,
  ): Promise<null> {
    const key = await this.authorized(context, input);
    const details: ErrorDetail[] = [];
    checkEvent(input.event, 'event', details);
    checkData(input.data, 'data', details);
    if (details.length) throw AppError.validation(details);
    await this.cluster.send({
      kind: 'publish',
      appId: key.appId,
      channels: [`${MEMBER_CHANNEL_PREFIX}${input.member_id}`],
      event: input.event,
      data: input.data ?? null,
    });
    return null;
  }

  async disconnectMember(context: RequestContext, input: RealtimeMemberRequest): Promise<null> {
    const key = await this.authorized(context, input);
    await this.cluster.send({
      kind: 'disconnect-member',
      appId: key.appId,
      memberId: input.member_id,
      code: CloseCodes.MemberTerminated,
    });
    return null;
  }

  /** Counts of these channels across every realtime process, sorted by name. */
  private async counts(key: ActiveKey, channels: string[], include: RealtimeChannelInclude[]) {
    const occupied = new Map(
      (await this.cluster.channels(key.appId)).map((channel) => [channel.name, channel]),
    );
    return [...channels]
      .sort()
      .map((channel) => pick(channel, countsOf(occupied.get(channel)), include));
  }

  /** One channel across every realtime process; undefined when nobody is subscribed. */
  private async channel(key: ActiveKey, name: string) {
    return (await this.cluster.channels(key.appId, name)).find((channel) => channel.name === name);
  }

  /**
   * The key and secret of the headers, an active key of the app in the path, of this workspace.
   * An app id that is not one of the workspace's is 404 (E04003) whatever the headers carry, as
   * on every other route; a bad key for an app of the workspace is 401 (E02004).
   */
  private async authorized(
    context: RequestContext,
    input: RealtimeDataPlaneRequest,
  ): Promise<ActiveKey> {
    const key = input.credentials?.key
      ? await this.keys.active(input.credentials.key, input.realtime_app_id)
      : undefined;
    const workspaceId = workspaceOf(context);
    if (
      !key ||
      key.workspaceId !== workspaceId ||
      !sameSecret(input.credentials.secret, key.secret)
    )
      // An app id of another workspace (or of none) names nothing here, whatever the credentials.
      throw new AppError(
        (await this.keys.appInWorkspace(input.realtime_app_id, workspaceId))
          ? RealtimeErrors.RealtimeCredentialsInvalid
          : RealtimeErrors.RealtimeAppNotFound,
      );
    return key;
  }
}

function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A merged channel as counts (an unoccupied channel counts zero). */
function countsOf(
  channel: { name: string; connections: number; members: Set<string> } | undefined,
) {
  return {
    connection_count: channel?.connections ?? 0,
    ...(channel?.name.startsWith('presence-') || !channel
      ? { member_count: channel?.members.size ?? 0 }
      : {}),
  };
}

function pick(
  name: string,
  counts: { connection_count: number; member_count?: number },
  include: RealtimeChannelInclude[],
): RealtimeChannelListItem {
  const out: RealtimeChannelListItem & RealtimeChannelCounts = { name };
  if (include.includes('connection_count')) out.connection_count = counts.connection_count;
  if (include.includes('member_count') && counts.member_count !== undefined)
    out.member_count = counts.member_count;
  return out;
}

function checkEvent(event: unknown, param: string, details: ErrorDetail[]): void {
  const problem = eventNameProblem(event);
  if (problem) details.push({ param, message: problem });
}

function checkChannel(channel: unknown, param: string, details: ErrorDetail[]): void {
  const problem = channelNameProblem(channel);
  if (problem || channelKind(channel as string) === 'member')
    details.push({ param, message: problem ?? 'member channels take member events only' });
}

function checkData(data: unknown, param: string, details: ErrorDetail[]): void {
  if (data === undefined) return;
  const size = Buffer.byteLength(JSON.stringify(data));
  if (size > LIMITS.eventDataBytes)
    details.push({
      param,
      message: `at most ${LIMITS.eventDataBytes} bytes serialized (got ${size})`,
    });
}

/**
 * 400 (E01021): `member_count` is for presence channels, `connection_count` needs the app's
 * `connection_counting` flag.
 */
function checkIncludes(
  include: RealtimeChannelInclude[] | undefined,
  channels: string[],
  key: ActiveKey,
  param: string,
): void {
  const problems: string[] = [];
  if (include?.includes('member_count') && channels.some((c) => !c.startsWith('presence-')))
    problems.push('member_count is for presence- channels only');
  if (include?.includes('connection_count') && !key.connectionCounting)
    problems.push("connection_count needs the app's connection_counting flag");
  if (problems.length)
    throw new AppError(RealtimeErrors.RealtimeCountNotAvailable, {
      message: `${param}: ${problems.join('; ')}.`,
      param,
    });
}
