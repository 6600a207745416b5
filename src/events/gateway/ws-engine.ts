import type { Socket } from 'socket.io';
import { WebSocketServer, type ServerOptions } from 'ws';

/**
 * The WebSocket server engine.io runs (its `wsEngine` option): ws's own, with `allowSynchronousEvents` off, so a
 * connection's incoming messages are handed on one per turn of the event loop instead of every frame of a read at
 * once. A client writing 30,000 messages in one burst otherwise held the loop for whole reads (up to 1.2 s of `/health`
 * latency in `npm run bench:socket-flood`, against 0.15 s with this); one message per turn lets HTTP requests and
 * other sockets in between, and while the turns go by ws stops reading that connection (its receiver is a stream
 * with backpressure), so the flood waits in the kernel's buffers and on the client, not in the server's memory.
 * Pinned by ws-engine.spec.ts.
 */
export class OneMessagePerTurn extends WebSocketServer {
  constructor(options: ServerOptions) {
    super({ ...options, allowSynchronousEvents: false });
  }
}

/** The engine.io transport's WebSocket (a ws connection), where pausing stops reading the TCP connection. */
interface Pausable {
  pause(): void;
  resume(): void;
}

const paused = new WeakSet<Pausable>();

/**
 * Stops reading a socket's connection for `ms` (a flood): what the client sends meanwhile waits in the kernel's
 * buffers and on the client and costs the server nothing, instead of being parsed only to be dropped. The WebSocket
 * transport only (engine.io's `transport.socket` is the ws connection); a long-polling request is bounded by
 * maxHttpBufferSize already. Writing to the client goes on. Pinned by ws-engine.spec.ts.
 */
export function pauseReading(socket: Socket, ms: number): void {
  const ws = (socket.conn.transport as unknown as { socket?: Partial<Pausable> }).socket;
  if (typeof ws?.pause !== 'function' || typeof ws.resume !== 'function') return;
  const connection = ws as Pausable;
  if (paused.has(connection)) return;
  paused.add(connection);
  connection.pause();
  setTimeout(() => {
    paused.delete(connection);
    connection.resume();
  }, ms).unref();
}
