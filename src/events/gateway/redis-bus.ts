import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { Logger } from '../../common/logging/logger';

/**
 * The Redis connections of the events module (REDIS_URL): a publisher and a subscriber for the socket.io adapter,
 * the publisher also holding the WebSocket statistics. Without REDIS_URL both are null and every instance works
 * alone. Redis trouble never crashes the process or blocks a request: commands fail fast while it is down (logged
 * at most once a minute) and the caller carries on locally; ioredis reconnects and re-subscribes by itself.
 */
@Injectable()
export class RedisBus implements OnModuleInit, OnApplicationShutdown {
  readonly pub: Redis | null;
  readonly sub: Redis | null;
  readonly prefix: string;
  private lastWarning = 0;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly logger: Logger,
  ) {
    this.prefix = config.redisKeyPrefix;
    if (!config.redisUrl) {
      this.pub = this.sub = null;
      return;
    }
    this.pub = quiet(
      new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false }),
      (e) => this.warn(e),
    );
    // The subscriber connects on its first command (the adapter's subscriptions), so they wait in the offline queue
    // until the connection is ready. Sent any earlier (ioredis writes them in the `connect` state) they would put the
    // connection in subscriber mode before its ready check, which then fails and reconnects without the pattern
    // subscription: the instance would silently stop hearing other instances. ioredis replays them on reconnects.
    this.sub = quiet(new Redis(config.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true }), (e) =>
      this.warn(e),
    );
  }

  get enabled(): boolean {
    return this.pub !== null;
  }

  /** A key or channel name under this deployment's prefix. */
  key(name: string): string {
    return `${this.prefix}:${name}`;
  }

  /** Waits briefly for the first connection so the first broadcasts already reach other instances. */
  async onModuleInit(): Promise<void> {
    if (this.pub) await ready(this.pub);
  }

  async onApplicationShutdown(): Promise<void> {
    for (const client of [this.pub, this.sub]) {
      if (!client) continue;
      // QUIT would wait in the offline queue for a Redis that is not there.
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else if (client.status !== 'wait' && client.status !== 'end') client.disconnect();
    }
  }

  private warn(err: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < 60_000) return;
    this.lastWarning = now;
    this.logger.warn(
      { err },
      'Redis unavailable: WebSocket events reach only this instance until it is back',
    );
  }
}

/**
 * The socket.io Redis adapter calls publish, subscribe and (when the server closes) unsubscribe without awaiting them;
 * a rejected command would be an unhandled rejection (fatal in Node). With Redis down, the unsubscriptions wait in the
 * subscriber's queue until the shutdown's disconnect rejects them. These wrappers turn rejections into a warning.
 */
function quiet(client: Redis, onError: (err: unknown) => void): Redis {
  client.on('error', onError);
  for (const method of ['publish', 'subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe'] as const) {
    const original = client[method].bind(client) as (...args: unknown[]) => Promise<unknown>;
    (client as unknown as Record<string, unknown>)[method] = (...args: unknown[]) =>
      original(...args).catch((err: unknown) => {
        onError(err);
        return 0;
      });
  }
  return client;
}

/** Resolves at the first sign of life or failure: a boot never waits long for a Redis that is down. */
function ready(client: Redis, timeoutMs = 3_000): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      client.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    client.once('ready', done);
    client.once('error', done);
  });
}
