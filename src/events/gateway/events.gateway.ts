import {
  ConnectedSocket,
  MessageBody,
  OnGatewayConnection,
  OnGatewayDisconnect,
  OnGatewayInit,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Server, Socket } from 'socket.io';
import { DataSource } from 'typeorm';
import type { Actor } from '../../common/actor';
import { Authenticator } from '../../auth/authenticator';
import { ApiError } from '../../common/errors/api-error';
import { Logger } from '../../common/logging/logger';
import { sqlRows } from '../../database/sql';
import { SocketFanout } from './socket-fanout';
import { WsStats } from './ws-stats';

interface WsError {
  code: string;
  message: string;
}

interface SocketData {
  actor?: Actor;
  error?: WsError;
}

export type Ack = { ok: true; room?: string } | { ok: false; error: WsError };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const ownRoom = (actor: Actor): string => `${actor.kind}:${actor.id}`;

/**
 * socket.io on path /ws. The handshake carries `auth: {token}` (API key, agent JWT or worker JWT); it is checked
 * before the connection completes. A bad credential gets an `error` message {code, message} and a server-side
 * disconnect (the client does not retry by itself). A good one joins its own room (`agent:{id}` or `worker:{id}`)
 * and receives `ready` {kind, id, rooms}. `subscribe {task_id}` joins `task:{id}` after an ownership check (an
 * agent: its own tasks; a worker: tasks it holds a live assignment on), answered by ack. When a worker's assignment
 * ends (declined, approved, rejected, abandoned, expired, cancelled) its sockets leave the task's room (SocketFanout). Messages are the webhook event
 * names and payloads, emitted by the outbox publisher after the transaction that wrote them committed.
 * Authentication happens once, at the handshake: a credential revoked later does not end an open connection.
 */
@WebSocketGateway({ path: '/ws', serveClient: false, cors: { origin: true } })
export class EventsGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly fanout: SocketFanout,
    private readonly stats: WsStats,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly logger: Logger,
  ) {}

  afterInit(server: Server): void {
    this.fanout.attach(server);
    server.use((socket, next) => {
      void this.authenticate(socket).finally(() => next());
    });
    this.stats.start();
  }

  handleConnection(socket: Socket): void {
    const data = socket.data as SocketData;
    if (!data.actor) {
      socket.emit(
        'error',
        data.error ?? { code: 'authentication_required', message: 'Authentication failed.' },
      );
      socket.disconnect();
      return;
    }
    const room = ownRoom(data.actor);
    void socket.join(room);
    this.stats.connected(data.actor.kind);
    socket.emit('ready', { kind: data.actor.kind, id: data.actor.id, rooms: [room] });
  }

  handleDisconnect(socket: Socket): void {
    const actor = (socket.data as SocketData).actor;
    if (actor) this.stats.disconnected(actor.kind);
  }

  @SubscribeMessage('subscribe')
  async subscribe(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack> {
    const actor = (socket.data as SocketData).actor;
    const taskId = taskIdOf(body);
    if (!actor) return fail('authentication_required', 'Not authenticated.');
    if (!taskId) return fail('validation_error', 'Send {task_id: <uuid>}.');
    try {
      if (!(await this.mayWatch(actor, taskId))) return fail('task_not_found', 'Task not found.');
    } catch (err) {
      this.logger.error({ err }, 'WebSocket subscribe failed');
      return fail('internal_error', 'The subscription could not be checked; try again.');
    }
    const room = `task:${taskId.toLowerCase()}`;
    await socket.join(room);
    return { ok: true, room };
  }

  @SubscribeMessage('unsubscribe')
  async unsubscribe(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack> {
    const taskId = taskIdOf(body);
    if (!taskId) return fail('validation_error', 'Send {task_id: <uuid>}.');
    const room = `task:${taskId.toLowerCase()}`;
    await socket.leave(room);
    return { ok: true, room };
  }

  private async authenticate(socket: Socket): Promise<void> {
    const data = socket.data as SocketData;
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || token.length === 0) {
      data.error = {
        code: 'authentication_required',
        message: 'Send auth: {token: <API key or JWT>} in the handshake.',
      };
      return;
    }
    try {
      data.actor = await this.authenticator.authenticate(token);
    } catch (err) {
      if (err instanceof ApiError) data.error = { code: err.code, message: err.message };
      else {
        this.logger.error({ err }, 'WebSocket authentication failed unexpectedly');
        data.error = { code: 'internal_error', message: 'Authentication could not be completed.' };
      }
    }
  }

  private async mayWatch(actor: Actor, taskId: string): Promise<boolean> {
    const [sql, params]: [string, unknown[]] =
      actor.kind === 'agent'
        ? [`SELECT 1 FROM tasks WHERE id = $1 AND agent_id = $2`, [taskId, actor.id]]
        : actor.kind === 'worker'
          ? [
              // Only while the assignment is live: an ended one (abandoned, rejected, expired...) watches no more.
              `SELECT 1 FROM assignments WHERE task_id = $1 AND worker_id = $2
                  AND status IN ('pending', 'accepted', 'in_progress', 'submitted')`,
              [taskId, actor.id],
            ]
          : [`SELECT 1 FROM tasks WHERE id = $1`, [taskId]];
    const rows = await sqlRows(this.ds, sql, params);
    return rows.length > 0;
  }
}

function taskIdOf(body: unknown): string | null {
  const id = (body as { task_id?: unknown } | null)?.task_id;
  return typeof id === 'string' && UUID.test(id) ? id : null;
}

function fail(code: string, message: string): Ack {
  return { ok: false, error: { code, message } };
}
