import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { createAdapter } from '@socket.io/redis-adapter';
import { Server } from 'socket.io';
import type { AppConfig } from '../../config/config';
import { Logger } from '../../common/logging/logger';
import { RedisBus } from './redis-bus';

/** A port nothing listens on: Redis is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('RedisBus while Redis is down', () => {
  it('shuts down with the socket.io adapter without an unhandled rejection', async () => {
    // The adapter's close() unsubscribes without awaiting; with Redis down those commands wait in the subscriber's
    // queue, and the shutdown's disconnect rejects them ("Connection is closed.").
    const config = {
      redisUrl: `redis://127.0.0.1:${await closedPort()}`,
      redisKeyPrefix: 'spec',
    } as AppConfig;
    const bus = new RedisBus(config, new Logger('silent'));
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const io = new Server(createHttpServer());
      io.adapter(createAdapter(bus.pub, bus.sub, { key: bus.key('socket.io') }));
      await io.close();
      await bus.onApplicationShutdown();
      await new Promise((resolve) => setTimeout(resolve, 50)); // unhandled rejections are reported after a tick
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});
