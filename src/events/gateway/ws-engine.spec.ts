import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket } from 'socket.io';
import { io, type Socket as ClientSocket } from 'socket.io-client';
import { OneMessagePerTurn, pauseReading } from './ws-engine';

/**
 * The engine.io and ws internals the gateway's flood defences rely on (`wsEngine`, `allowSynchronousEvents`,
 * `transport.socket.pause()`), on a real socket.io server over loopback: an upgrade that changes them fails here
 * instead of silently turning a defence off.
 */
describe('OneMessagePerTurn and pauseReading', () => {
  let http: HttpServer;
  let server: Server;
  let client: ClientSocket;
  let serverSocket: Socket;

  beforeAll(async () => {
    http = createServer();
    server = new Server(http, { wsEngine: OneMessagePerTurn, transports: ['websocket'] });
    const connected = new Promise<Socket>((resolve) => server.once('connection', resolve));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    client = io(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false });
    serverSocket = await connected;
  });

  afterAll(async () => {
    client.disconnect();
    await server.close();
  });

  const connection = () =>
    (serverSocket.conn.transport as unknown as { socket: { isPaused: boolean } }).socket;

  it('engine.io runs ws with allowSynchronousEvents off', () => {
    const ws = (server.engine as unknown as { ws: unknown }).ws;
    expect(ws).toBeInstanceOf(OneMessagePerTurn);
    expect((ws as { options: { allowSynchronousEvents: boolean } }).options.allowSynchronousEvents).toBe(
      false,
    );
  });

  it('hands on the messages of one read one per turn of the event loop', async () => {
    // A ticker counts the loop's turns; each message notes the turn it was handled in.
    let turn = 0;
    let ticking = true;
    const tick = (): void => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    tick();
    const turns: number[] = [];
    serverSocket.on('m', () => turns.push(turn));
    for (let i = 0; i < 10; i++) client.emit('m', i);
    await new Promise<void>((resolve) => {
      const check = () => (turns.length === 10 ? resolve() : setTimeout(check, 10));
      check();
    });
    ticking = false;
    // Ten messages written together, handled in ten different turns: nothing else waited behind the burst.
    expect(new Set(turns).size).toBe(10);
  });

  it('pauseReading stops reading the connection, then reads again after the pause', async () => {
    serverSocket.on('ping', (ack: (paused: boolean) => void) => ack(connection().isPaused));
    pauseReading(serverSocket, 300);
    expect(connection().isPaused).toBe(true);
    // Sent during the pause, handled only once reading resumed.
    const pausedWhenHandled = (await client.emitWithAck('ping')) as boolean;
    expect(pausedWhenHandled).toBe(false);
    expect(connection().isPaused).toBe(false);
  });
});
