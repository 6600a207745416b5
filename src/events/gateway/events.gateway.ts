import {
  ConnectedSocket,
  MessageBody,
  OnGatewayConnection,
  OnGatewayDisconnect,
  OnGatewayInit,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import type { Event, Server, Socket } from 'socket.io';
import type { Actor } from '../../common/actor';
import { Authenticator } from '../../auth/authenticator';
import { ApiError } from '../../common/errors/api-error';
import { Logger } from '../../common/logging/logger';
import { AccountSockets } from './account-sockets';
import { EventReplay } from './event-replay';
import { HandshakeLimit } from './handshake-limit';
import { SocketFanout } from './socket-fanout';
import { MessageGate, SOCKET_LIMITS } from './socket-limits';
import { ownershipMemo, OwnershipMemo, TaskWatch } from './task-watch';
import { OneMessagePerTurn, pauseReading } from './ws-engine';
import { WsStats } from './ws-stats';

/** The codes a socket is told, in an `error` message or an ack (docs/webhooks.md lists them). */
type WsErrorCode =
  | 'authentication_required'
  | 'invalid_api_key'
  | 'invalid_token'
  | 'account_disabled'
  | 'validation_error'
  | 'task_not_found'
  | 'unknown_event'
  | 'rate_limited'
  | 'too_many_subscriptions'
  | 'too_many_connections'
  | 'internal_error';

interface WsError {
  /** A WsErrorCode, or the code of the credential's ApiError. */
  code: string;
  message: string;
  retry_after?: number;
}

interface SocketData {
  actor?: Actor;
  error?: WsError;
  memo?: OwnershipMemo;
}

export type Ack = { ok: true; room?: string } | { ok: false; error: WsError };

/** The messages a client may send; anything else is counted against its rate and goes no further. */
const MESSAGES = new Set(['subscribe', 'unsubscribe']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const ownRoom = (actor: Actor): string => `${actor.kind}:${actor.id}`;

/**
 * socket.io on path /ws. The handshake carries `auth: {token}` (API key, agent JWT or worker JWT); it is checked
 * before the connection completes, after the per-IP handshake rate. A refused handshake gets an `error` message
 * {code, message} and a server-side disconnect (the client does not retry by itself). A good one joins its own room
 * (`agent:{id}` or `worker:{id}`) and receives `ready` {kind, id, rooms}. `subscribe {task_id}` joins `task:{id}`
 * after an ownership check (TaskWatch), answered by ack. When a worker's assignment ends (declined, approved,
 * rejected, abandoned, expired, cancelled) its sockets leave the task's room (SocketFanout). Messages are the webhook
 * event names and payloads, emitted by the outbox publisher after the transaction that wrote them committed.
 * Authentication happens once, at the handshake: a credential revoked later does not end an open connection.
 *
 * Every socket is held to SOCKET_LIMITS (product-decisions §16) before any handler runs: its message rate (a
 * socket.io middleware per socket), its task rooms, its account's open sockets on this instance, the size of one
 * message (maxHttpBufferSize: a bigger one closes the connection). Work per message is bounded: an unknown message
 * or a malformed body costs a rate token and a check, ownership answers are remembered per socket, and incoming
 * messages are taken one per turn of the event loop (OneMessagePerTurn), so a burst never holds up other requests.
 */
@WebSocketGateway({
  path: '/ws',
  serveClient: false,
  cors: { origin: true },
  maxHttpBufferSize: SOCKET_LIMITS.maxMessageBytes,
  wsEngine: OneMessagePerTurn,
})
export class EventsGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect {
  private readonly accounts = new AccountSockets<Socket>(SOCKET_LIMITS.socketsPerAccount);

  constructor(
    private readonly authenticator: Authenticator,
    private readonly handshakes: HandshakeLimit,
    private readonly replays: EventReplay,
    private readonly watch: TaskWatch,
    private readonly fanout: SocketFanout,
    private readonly stats: WsStats,
    private readonly logger: Logger,
  ) {}

  afterInit(server: Server): void {
    this.fanout.attach(server);
    server.use((socket, next) => {
      void this.admit(socket).finally(() => next());
    });
    this.stats.start();
  }

  handleConnection(socket: Socket): void {
    const data = socket.data as SocketData;
    const actor = data.actor;
    if (!actor) {
      close(socket, data.error ?? { code: 'authentication_required', message: 'Authentication failed.' });
      return;
    }
    const memo = (data.memo = ownershipMemo());
    const gate = new MessageGate(performance.now());
    socket.use((packet, next) => this.gateMessage(socket, gate, packet, next));
    // What a worker may watch changes with its assignments: anything it is told about a task (an offer, an
    // ending) makes it ask again rather than trust a remembered answer.
    if (actor.kind === 'worker') socket.onAnyOutgoing((_name, payload) => forget(memo, payload));
    const room = ownRoom(actor);
    const joined = socket.join(room);
    this.stats.connected(actor.kind);
    socket.emit('ready', { kind: actor.kind, id: actor.id, rooms: [room] });
    const lastEventId = (socket.handshake.auth as { last_event_id?: unknown } | undefined)?.last_event_id;
    if (typeof lastEventId === 'string' && UUID.test(lastEventId)) {
      void Promise.resolve(joined).then(() => this.replay(socket, actor, lastEventId));
    }
    for (const oldest of this.accounts.add(room, socket)) {
      close(oldest, {
        code: 'too_many_connections',
        message: `A newer connection of this account replaced this one: at most ${SOCKET_LIMITS.socketsPerAccount} may be open at once.`,
      });
    }
  }

  /**
   * A reconnecting client's missed events (auth.last_event_id: the last event it saw), from the event log, each as
   * the same message it would have had live, then `replayed` {count, found, complete}. Read once the socket is in its
   * room, so an event is never missed in between (it may come twice, with the same event_id).
   */
  private async replay(socket: Socket, actor: Actor, lastEventId: string): Promise<void> {
    try {
      const replay = await this.replays.since(actor, lastEventId);
      if (!socket.connected) return;
      for (const e of replay.events) socket.emit(e.event, e);
      socket.emit('replayed', {
        count: replay.events.length,
        found: replay.found,
        complete: replay.complete,
      });
    } catch (err) {
      this.logger.error({ err }, 'WebSocket replay failed');
      socket.emit('replayed', { count: 0, found: false, complete: false });
    }
  }

  handleDisconnect(socket: Socket): void {
    const actor = (socket.data as SocketData).actor;
    if (!actor) return;
    this.stats.disconnected(actor.kind);
    this.accounts.remove(ownRoom(actor), socket);
  }

  @SubscribeMessage('subscribe')
  async subscribe(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack> {
    const { actor, memo } = socket.data as SocketData;
    const taskId = taskIdOf(body);
    if (!actor || !memo) return fail('authentication_required', 'Not authenticated.');
    if (!taskId) return fail('validation_error', 'Send {task_id: <uuid>}.');
    const room = `task:${taskId}`;
    if (socket.rooms.has(room)) return { ok: true, room };
    if (taskRooms(socket) >= SOCKET_LIMITS.taskRooms) {
      return fail(
        'too_many_subscriptions',
        `A connection may watch at most ${SOCKET_LIMITS.taskRooms} tasks: unsubscribe from one first.`,
      );
    }
    try {
      if (!(await this.watch.mayWatch(actor, taskId, memo))) return fail('task_not_found', 'Task not found.');
    } catch (err) {
      this.logger.error({ err }, 'WebSocket subscribe failed');
      return fail('internal_error', 'The subscription could not be checked; try again.');
    }
    await socket.join(room);
    return { ok: true, room };
  }

  @SubscribeMessage('unsubscribe')
  async unsubscribe(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack> {
    const taskId = taskIdOf(body);
    if (!taskId) return fail('validation_error', 'Send {task_id: <uuid>}.');
    const room = `task:${taskId}`;
    await socket.leave(room);
    return { ok: true, room };
  }

  /** The handshake's rate first (no credential is looked at when it is refused), then the credential. */
  private async admit(socket: Socket): Promise<void> {
    const data = socket.data as SocketData;
    try {
      const refusal = await this.handshakes.check(socket.handshake.address, socket.handshake.headers);
      if (refusal) data.error = refusal;
      else data.actor = await this.authenticate(socket);
    } catch (err) {
      if (err instanceof ApiError) data.error = { code: err.code, message: err.message };
      else {
        this.logger.error({ err }, 'WebSocket authentication failed unexpectedly');
        data.error = { code: 'internal_error', message: 'Authentication could not be completed.' };
      }
    }
  }

  private authenticate(socket: Socket): Promise<Actor> {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || token.length === 0) {
      throw new ApiError('authentication_required', 'Send auth: {token: <API key or JWT>} in the handshake.');
    }
    return this.authenticator.authenticate(token);
  }

  /** Every incoming message passes here before any handler (socket.io middleware of the socket). */
  private gateMessage(socket: Socket, gate: MessageGate, packet: Event, next: () => void): void {
    // Packets already read when the socket was closed still come through here: nothing more to do for them.
    if (!socket.connected) return;
    const last: unknown = packet[packet.length - 1];
    const ack = typeof last === 'function' ? (last as (answer: Ack) => void) : null;
    const verdict = gate.admit(performance.now(), ack !== null);
    if (verdict === 'pass') {
      if (MESSAGES.has(packet[0])) next();
      else ack?.(fail('unknown_event', 'Unknown message: send subscribe or unsubscribe.'));
    } else if (verdict === 'refuse') {
      ack?.(
        fail(
          'rate_limited',
          `More than ${SOCKET_LIMITS.messagesPerSecond} messages a second: this one was not processed.`,
        ),
      );
    } else if (verdict === 'flood') {
      pauseReading(socket, SOCKET_LIMITS.floodPauseMs);
    } else if (verdict === 'disconnect') {
      const actor = (socket.data as SocketData).actor;
      this.logger.warn({ kind: actor?.kind, account_id: actor?.id }, 'WebSocket disconnected for flooding');
      close(socket, {
        code: 'rate_limited',
        message: `Disconnected: still over ${SOCKET_LIMITS.messagesPerSecond} messages a second after ${SOCKET_LIMITS.floodDisconnectMs / 1000} s.`,
      });
    }
  }
}

/** Tells the socket why, then closes its connection (not only the namespace: a client could keep that open). */
function close(socket: Socket, error: WsError): void {
  socket.emit('error', error);
  socket.disconnect(true);
}

function forget(memo: OwnershipMemo, payload: unknown): void {
  const taskId = taskIdOf(payload);
  if (taskId) memo.delete(taskId);
}

function taskRooms(socket: Socket): number {
  let n = 0;
  for (const room of socket.rooms) if (room.startsWith('task:')) n++;
  return n;
}

/** The task id of a `{task_id}` body, lower-cased (one room and one memo entry per task, whatever the spelling). */
function taskIdOf(body: unknown): string | null {
  const id = typeof body === 'object' && body !== null ? (body as { task_id?: unknown }).task_id : null;
  return typeof id === 'string' && UUID.test(id) ? id.toLowerCase() : null;
}

function fail(code: WsErrorCode, message: string): Ack {
  return { ok: false, error: { code, message } };
}
