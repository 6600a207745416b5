import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { io, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { followLimits, type LiveStatus } from './live';

/**
 * followLimits against a real socket.io server that answers as the gateway does past its limits
 * (src/events/gateway/events.gateway.ts: an `error` message, then a server-side disconnect). The client's own
 * reconnection is set to retry after 20 ms, so a client that ignored the message would be seen connecting again
 * at once.
 */
describe('live connection and the socket limits', () => {
  let http: HttpServer;
  let server: Server;
  let client: Socket;
  let stop: () => void = () => undefined;

  const start = async (onConnection: (socket: ServerSocket, n: number) => void) => {
    http = createServer();
    server = new Server(http, { path: '/ws', transports: ['websocket'] });
    let n = 0;
    server.on('connection', (socket) => onConnection(socket, ++n));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    client = io(`http://127.0.0.1:${port}`, {
      path: '/ws',
      transports: ['websocket'],
      reconnectionDelay: 20,
      reconnectionDelayMax: 20,
    });
  };
  const refuse = (socket: ServerSocket, error: Record<string, unknown>) => {
    socket.emit('error', error);
    socket.disconnect(true);
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const until = async (done: () => boolean) => {
    for (let waited = 0; !done() && waited < 10_000; waited += 50) await sleep(50);
  };

  afterEach(async () => {
    stop();
    client?.disconnect();
    await server?.close();
  });

  it('after rate_limited, connects again only once retry_after has passed', async () => {
    const connections: number[] = [];
    await start((socket, n) => {
      connections.push(Date.now());
      if (n === 1) refuse(socket, { code: 'rate_limited', message: 'Too many connections', retry_after: 1 });
    });
    const statuses: LiveStatus['state'][] = [];
    stop = followLimits(client, (s) => statuses.push(s.state));
    await sleep(700);
    expect(connections).toHaveLength(1);
    expect(statuses).toEqual(['live', 'waiting']);
    await until(() => statuses.length === 3);
    expect(connections).toHaveLength(2);
    expect(connections[1] - connections[0]).toBeGreaterThanOrEqual(1000);
    expect(statuses).toEqual(['live', 'waiting', 'live']);
    expect(client.connected).toBe(true);
  });

  it('after too_many_connections, stays disconnected instead of replacing the newer connection in a loop', async () => {
    let connections = 0;
    await start((socket) => {
      connections++;
      refuse(socket, { code: 'too_many_connections', message: 'A newer connection replaced this one' });
    });
    const statuses: LiveStatus['state'][] = [];
    stop = followLimits(client, (s) => statuses.push(s.state));
    await sleep(600);
    expect(connections).toBe(1);
    expect(statuses).toEqual(['live', 'replaced']);
    expect(client.connected).toBe(false);
  });

  it('leaves any other disconnect to socket.io, which reconnects by itself', async () => {
    let connections = 0;
    await start((socket) => {
      if (++connections === 1) socket.conn.close();
    });
    const statuses: LiveStatus['state'][] = [];
    stop = followLimits(client, (s) => statuses.push(s.state));
    await until(() => statuses.length === 2);
    expect(connections).toBe(2);
    expect(statuses).toEqual(['live', 'live']);
  });
});
