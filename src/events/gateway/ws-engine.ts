import { WebSocketServer, type ServerOptions } from 'ws';

/**
 * The WebSocket server engine.io runs (its `wsEngine` option): ws's own, with `allowSynchronousEvents` off, so a
 * connection's incoming messages are handed on one per turn of the event loop instead of every frame of a read at
 * once. A client writing 30,000 messages in one burst otherwise held the loop for a whole read (240 ms and more of
 * frames, parsing and gating) and every other request waited behind it; one message per turn lets HTTP requests
 * and other sockets in between, and while the turns go by, ws stops reading that socket (its receiver is a stream
 * with backpressure), so the flood waits in the kernel's buffer and on the client, not in the server's memory.
 */
export class OneMessagePerTurn extends WebSocketServer {
  constructor(options: ServerOptions) {
    super({ ...options, allowSynchronousEvents: false });
  }
}
