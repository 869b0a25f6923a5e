import { Injectable } from '@nestjs/common';
import { RealtimeEngine, SubscriptionRefused } from './engine';
import type { ClientConnection } from './engine';
import { channelKind, eventNameProblem } from './names';
import { ClientEvents, decodeFrame, errorFrame, LIMITS, ServerEvents } from './protocol';
import type { Frame } from './protocol';
import { RealtimeCluster } from './realtime-cluster';
import { realtimeMessages } from './realtime-metrics';

/** What a client's frame does, whichever transport carried it (WebSocket or socket.io). */
@Injectable()
export class FrameHandler {
  constructor(
    private readonly engine: RealtimeEngine,
    private readonly cluster: RealtimeCluster,
  ) {}

  /** One client frame; anything malformed or refused is answered with an error frame. */
  receive(connection: ClientConnection, raw: Buffer, isBinary: boolean): void {
    realtimeMessages.inc({ direction: 'in' });
    if (isBinary || raw.length > LIMITS.frameBytes) {
      connection.send(
        errorFrame(4300, `Frames are JSON text of at most ${LIMITS.frameBytes} bytes`),
      );
      return;
    }
    const frame = decodeFrame(raw.toString('utf8'));
    if (!frame) {
      connection.send(errorFrame(4300, 'A frame is a JSON object with an event name'));
      return;
    }
    try {
      switch (frame.event) {
        case ClientEvents.Ping:
          return connection.send({ event: ServerEvents.Pong, data: {} });
        case ClientEvents.Pong:
          return;
        case ClientEvents.Subscribe:
          return this.engine.subscribe(connection.id, frame.data);
        case ClientEvents.Unsubscribe:
          return this.engine.unsubscribe(connection.id, frame.data);
        case ClientEvents.Signin: {
          const member = this.engine.signin(connection.id, frame.data);
          return connection.send({
            event: ServerEvents.SigninSuccess,
            data: {
              member_data: JSON.stringify({
                member_id: member.id,
                ...(member.info === undefined ? {} : { member_info: member.info }),
              }),
            },
          });
        }
        default:
          return this.clientEvent(connection, frame);
      }
    } catch (err) {
      if (!(err instanceof SubscriptionRefused)) throw err;
      const channel = (frame.data as { channel?: unknown } | undefined)?.channel;
      if (frame.event === ClientEvents.Subscribe && typeof channel === 'string')
        connection.send({
          event: ServerEvents.SubscriptionError,
          channel,
          data: { type: 'AuthError', error: err.message, status: err.status },
        });
      else connection.send(errorFrame(4301, err.message));
    }
  }

  /** `client-*` events: to the other subscribers of a private or presence channel it is on. */
  private clientEvent(connection: ClientConnection, frame: Frame): void {
    const problem = eventNameProblem(frame.event);
    const kind = frame.channel ? channelKind(frame.channel) : undefined;
    if (!frame.event.startsWith('client-') || problem || !frame.channel) {
      connection.send(errorFrame(4301, `Unknown event ${JSON.stringify(frame.event)}`));
      return;
    }
    if (kind !== 'private' && kind !== 'presence') {
      connection.send(errorFrame(4301, 'Client events are for private and presence channels'));
      return;
    }
    if (!this.engine.isSubscribed(connection.id, frame.channel)) {
      connection.send(errorFrame(4301, `Not subscribed to ${frame.channel}`));
      return;
    }
    if (!this.engine.clientEventAllowed(connection.id)) {
      connection.send(
        errorFrame(
          4301,
          `At most ${LIMITS.clientEventsPerSecond} client events a second per connection; this one was not sent`,
        ),
      );
      return;
    }
    // Subscribers on other realtime processes receive it too; best effort, like Pusher's.
    this.cluster
      .send({
        kind: 'publish',
        appId: connection.appId,
        channels: [frame.channel],
        event: frame.event,
        data: frame.data,
        excludeConnectionId: connection.id,
      })
      .catch(() => connection.send(errorFrame(4301, 'The event could not be delivered')));
  }
}
