import { once } from 'node:events';
import { createServer, type Server } from 'node:net';

export interface ReservedPort {
  readonly port: number;
  /** The listening socket, for the HTTP server to take over (Node's `server.listen(handle)`). */
  readonly server: Server;
}

/**
 * PORT=0: a port the operating system picks, bound at once and held until the HTTP server takes the socket over, so
 * no other program can take it while the app starts (a harness that picked a free port and passed it on lost it so,
 * once: EADDRINUSE), and the configuration can name it (PUBLIC_BASE_URL's default). A connection that arrives before
 * the app serves is reset, as one to a closed port would be refused.
 */
export async function reservePort(host: string): Promise<ReservedPort> {
  const server = createServer((socket) => socket.destroy());
  server.listen(0, host);
  await once(server, 'listening');
  return { port: (server.address() as { port: number }).port, server };
}
