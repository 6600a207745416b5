import { randomUUID } from 'node:crypto';
import { io, Socket } from 'socket.io-client';

/**
 * socket.io clients of /ws for the socket flood: the benchmark (`npm run bench:socket-flood`) and the fault test
 * (test/fault/socket-flood.e2e-spec.ts) drive the server with the same clients and the same hostile mix.
 */

export interface LiveSocket {
  socket: Socket;
  /** Every server message received, in order, as [name, payload]. */
  messages: [string, unknown][];
  /** Why the connection ended (socket.io's reason), null while it is open. */
  closed: string | null;
}

export function ofName(client: LiveSocket, name: string): unknown[] {
  return client.messages.filter(([n]) => n === name).map(([, p]) => p);
}

/**
 * Connects to /ws with `token` and resolves once the server said `ready` or `error`, or the connection failed.
 * A connection of its own (forceNew), never retried (reconnection off): what happens to it is what is measured.
 */
export function connectSocket(baseUrl: string, token: string, timeoutMs = 30_000): Promise<LiveSocket> {
  const socket = io(baseUrl, {
    path: '/ws',
    transports: ['websocket'],
    auth: { token },
    reconnection: false,
    forceNew: true,
    timeout: timeoutMs,
  });
  const client: LiveSocket = { socket, messages: [], closed: null };
  socket.onAny((name: string, payload: unknown) => client.messages.push([name, payload]));
  socket.on('disconnect', (reason) => (client.closed = reason));
  return new Promise((resolve, reject) => {
    const settle = () => resolve(client);
    socket.once('ready', settle);
    socket.once('error', settle);
    socket.once('connect_error', (err: Error) => reject(new Error(`connect_error: ${err.message}`)));
  });
}

/** One message of the hostile mix: [event name, payload, whether it asks for an ack]. */
type Message = [string, unknown, boolean];

/**
 * The hostile mix, in turn: subscribe and unsubscribe to the flooder's own task, subscribe to tasks that do not exist
 * (a new id each time, so no answer can be remembered), unknown event names, malformed bodies of every JSON type, the
 * reserved-looking names `error` and `__proto__`, and messages with and without an ack callback.
 */
export function hostileMessage(i: number, ownTaskId: string): Message {
  switch (i % 10) {
    case 0:
      return ['subscribe', { task_id: ownTaskId }, true];
    case 1:
      return ['unsubscribe', { task_id: ownTaskId }, true];
    case 2:
      return ['subscribe', { task_id: randomUUID() }, true];
    case 3:
      return [`nonsense-${i}`, { i }, i % 20 === 3];
    case 4:
      return ['subscribe', 'not an object', false];
    case 5:
      return ['subscribe', { task_id: 42, nested: [[[[[[[[1]]]]]]]] }, true];
    case 6:
      return ['error', { code: 'spoofed' }, false];
    case 7:
      return ['subscribe', null, true];
    case 8:
      return ['__proto__', { polluted: true }, false];
    default:
      return ['unsubscribe', [ownTaskId, ownTaskId], i % 20 === 9];
  }
}

export interface FloodResult {
  sent: number;
  /** Acks received, by `ok` or by error code. */
  answers: Record<string, number>;
  /** Messages that asked for an ack and got none (dropped over the rate, or in flight when the socket closed). */
  unanswered: number;
  /** Whether the server ended the connection, and what it said first (its `error` message). */
  disconnected: boolean;
  reason: string | null;
  error: unknown;
  /** Wall time of the flood in milliseconds, from the first message to the disconnect or the give-up. */
  ms: number;
}

/** How a flood goes: `messages` as fast as the client can write them, then on until the server disconnects it. */
export interface FloodOptions {
  messages: number;
  /** Keep sending batches after `messages` until the server disconnects the socket (or `giveUpMs` passes). */
  untilDisconnected: boolean;
  giveUpMs?: number;
}

const BATCH = 200;

/** Floods `client` with the hostile mix and counts what came back. */
export async function flood(client: LiveSocket, ownTaskId: string, opts: FloodOptions): Promise<FloodResult> {
  const answers: Record<string, number> = {};
  let asked = 0;
  let sent = 0;
  const started = performance.now();
  const send = (count: number): void => {
    for (let n = 0; n < count && client.socket.connected; n++, sent++) {
      const [name, payload, wantsAck] = hostileMessage(sent, ownTaskId);
      if (!wantsAck) {
        client.socket.emit(name, payload);
        continue;
      }
      asked++;
      client.socket.emit(name, payload, (ack: { ok: boolean; error?: { code: string } }) => {
        const key = ack.ok ? 'ok' : (ack.error?.code ?? 'malformed');
        answers[key] = (answers[key] ?? 0) + 1;
      });
    }
  };
  send(opts.messages);
  const giveUp = started + (opts.giveUpMs ?? 30_000);
  while (opts.untilDisconnected && client.socket.connected && performance.now() < giveUp) {
    await new Promise((r) => setTimeout(r, 10));
    send(BATCH);
  }
  const ms = Math.round(performance.now() - started);
  // Answers already on the wire when the flood stopped still arrive (or never will, on a closed socket).
  if (client.socket.connected) await new Promise((r) => setTimeout(r, 500));
  const answered = Object.values(answers).reduce((a, b) => a + b, 0);
  return {
    sent,
    answers,
    unanswered: asked - answered,
    disconnected: client.closed !== null,
    reason: client.closed,
    error: ofName(client, 'error')[0] ?? null,
    ms,
  };
}
