import type { OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import type { Logger } from '../common/logging/logger';

/** One part of the process that wants PostgreSQL notifications (the auth cache, the outbox runner). */
export interface Subscriber {
  readonly channels: readonly string[];
  /** A notification on one of the channels. */
  notify(channel: string): void;
  /** Listening on every channel (again, after a loss): anything sent while not listening was missed. */
  up?(): void;
  /** The connection is lost: nothing is heard until the next up(). */
  down?(): void;
}

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;

/**
 * The process's one PostgreSQL connection for LISTEN, shared by every subscriber: the auth cache and the outbox
 * runner each had a connection of their own, two of the server's connections per process for a few notifications
 * a second. It connects when the first subscriber comes and LISTENs on the union of their channels (a subscriber
 * that comes later gets its channels added on the open connection). When the connection drops it tells each
 * subscriber (down), reconnects with backoff (0.5 s doubling to 30 s, as each listener did), LISTENs again and tells
 * them again (up), so each can make up for what it may have missed: the auth cache forgets what it held, the outbox
 * runner looks at its tables. TCP keepalive finds a peer that vanished without closing the connection.
 */
export class NotificationListener implements OnApplicationShutdown {
  private readonly subscribers = new Set<Subscriber>();
  private client: Client | null = null;
  /** Channels LISTENed on, and subscribers told up(), on the current connection. */
  private listened = new Set<string>();
  private told = new Set<Subscriber>();
  /** Connecting and LISTENing run one at a time, in order. */
  private work: Promise<void> = Promise.resolve();
  private retryMs = FIRST_RETRY_MS;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  /**
   * Adds a subscriber and resolves once it listens, or once a first attempt failed (it is then told up() when a
   * reconnection succeeds). Resolves with the function that removes it; the connection closes with the last one.
   */
  async subscribe(subscriber: Subscriber): Promise<() => Promise<void>> {
    this.subscribers.add(subscriber);
    await this.serially(() => this.sync());
    return () => this.unsubscribe(subscriber);
  }

  /**
   * Resolves once every notification sent before the call has been handed to the subscribers: PostgreSQL answers a
   * query on the listening connection only after the notifications pending for it. For tests that change rows with
   * plain SQL and then expect the next request to see it.
   */
  async settled(): Promise<void> {
    await this.client?.query('SELECT 1');
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscribers.clear();
    await this.disconnect();
  }

  private async unsubscribe(subscriber: Subscriber): Promise<void> {
    this.subscribers.delete(subscriber);
    this.told.delete(subscriber);
    if (this.subscribers.size === 0) await this.disconnect();
  }

  private serially(step: () => Promise<void>): Promise<void> {
    this.work = this.work.then(step);
    return this.work;
  }

  /** Connects when needed, LISTENs on the channels not yet listened on, and tells new subscribers up(). */
  private async sync(): Promise<void> {
    if (this.closed || this.subscribers.size === 0) return;
    const client = this.client ?? (await this.connect());
    if (!client) return;
    try {
      const wanted = [...new Set([...this.subscribers].flatMap((s) => s.channels))];
      const missing = wanted.filter((c) => !this.listened.has(c));
      // Channel names are the code's own constants, never input.
      if (missing.length > 0) await client.query(missing.map((c) => `LISTEN ${c}`).join('; '));
      for (const c of missing) this.listened.add(c);
    } catch (err) {
      this.lost(client, err);
      return;
    }
    if (client !== this.client) return;
    for (const s of this.subscribers) {
      if (this.told.has(s)) continue;
      this.told.add(s);
      s.up?.();
    }
  }

  private async connect(): Promise<Client | null> {
    const client = new Client({
      connectionString: this.databaseUrl,
      application_name: 'legwork-listener',
      keepAlive: true,
    });
    client.on('notification', (msg) => {
      for (const s of this.subscribers) if (s.channels.includes(msg.channel)) s.notify(msg.channel);
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
    } catch (err) {
      this.lost(client, err);
      return null;
    }
    if (this.closed || this.subscribers.size === 0) {
      await client.end().catch(() => undefined);
      return null;
    }
    this.client = client;
    this.retryMs = FIRST_RETRY_MS;
    return client;
  }

  /** The connection failed or dropped: every subscriber hears down(), and a reconnection is scheduled. */
  private lost(client: Client, err: unknown): void {
    client.end().catch(() => undefined);
    // The last event of a connection already replaced: nothing to do.
    if (this.client !== client && this.client !== null) return;
    if (err) {
      this.logger.warn(
        { err },
        'listening connection lost: credentials are looked up and the outbox is polled until it is back',
      );
    }
    this.client = null;
    this.listened = new Set();
    const told = [...this.told];
    this.told = new Set();
    for (const s of told) s.down?.();
    if (this.closed || this.timer || this.subscribers.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.serially(() => this.sync());
    }, this.retryMs);
    this.timer.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  private async disconnect(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    this.listened = new Set();
    this.told = new Set();
    await client?.end().catch(() => undefined);
  }
}
