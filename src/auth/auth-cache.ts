import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { Logger } from '../common/logging/logger';

/** The channel the auth triggers (migration AuthCacheNotify) NOTIFY when a credential or account changes. */
export const AUTH_CHANNEL = 'legwork_auth';
/**
 * A cached answer is used at most this long. Invalidation is by notification; the age limit only bounds the damage
 * of a notification that never arrived (a connection that died without an error).
 */
export const AUTH_CACHE_TTL_MS = 60_000;
/** Entries per map; the oldest are dropped first. Far above the active keys and accounts of one instance. */
const MAX_ENTRIES = 20_000;

interface Entry<T> {
  row: T;
  at: number;
}

/**
 * Remembers who a credential is (the API key's row, a JWT subject's account status and limits), so a request does
 * not pay a database round trip to authenticate: the lookup was one of the ~10 statements of a task creation and
 * of an accept. Only answers that let the request in are kept; a refusal is always looked up again.
 *
 * Correctness rests on invalidation, not on expiry:
 * - Triggers on api_keys, agents, workers and admins NOTIFY `legwork_auth` when a column the lookup reads changes
 *   (or the row goes), whoever changes it (the API, an operator's SQL). Every instance LISTENs on its own connection
 *   and drops everything it holds on a notification. Another instance therefore stops accepting a disabled or
 *   rotated key as soon as the notification reaches it (milliseconds after the commit).
 * - The services that change credentials in this process call `invalidate()` after their commit, so the next
 *   request here never sees the old state, without waiting for the notification.
 * - A lookup that was in flight while an invalidation happened does not store its (possibly old) answer: every
 *   invalidation moves an epoch, and a fill stores only if the epoch is the one it started under.
 * - While the listening connection is down (or not yet up) nothing is cached and every request looks up, as before;
 *   when it is back, everything held is dropped (notifications may have been missed meanwhile).
 */
@Injectable()
export class AuthCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly maps = new Map<string, Map<string, Entry<unknown>>>();
  private epoch = 0;
  private client: Client | null = null;
  private listening = false;
  private stopped = false;
  private retryMs = 500;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.drop();
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  /**
   * The cached row for `key` in `space` (e.g. api_key, worker), or the row `load` finds, kept when `keep` says it
   * lets a request in and no invalidation happened while it was being read.
   */
  async get<T>(
    space: string,
    key: string,
    load: () => Promise<T | undefined>,
    keep: (row: T) => boolean,
  ): Promise<T | undefined> {
    if (!this.listening) return load();
    let map = this.maps.get(space) as Map<string, Entry<T>> | undefined;
    const hit = map?.get(key);
    if (hit && Date.now() - hit.at < AUTH_CACHE_TTL_MS) return hit.row;
    const epoch = this.epoch;
    const row = await load();
    if (row !== undefined && keep(row) && this.listening && epoch === this.epoch) {
      if (!map) {
        map = new Map();
        this.maps.set(space, map);
      }
      map.delete(key);
      if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
      map.set(key, { row, at: Date.now() });
    }
    return row;
  }

  /** Drops everything held (a credential or account changed). Cheap: changes are rare next to requests. */
  invalidate(): void {
    this.drop();
  }

  /**
   * Resolves once every notification committed before the call has been applied: a query on the listening
   * connection is answered only after the notifications pending for it. For tests that change credentials with
   * plain SQL and then expect the next request to see it.
   */
  async settled(): Promise<void> {
    await this.client?.query('SELECT 1');
  }

  private drop(): void {
    this.epoch++;
    this.maps.clear();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const url = (this.ds.options as { url?: string }).url;
    if (!url) return;
    const client = new Client({ connectionString: url, application_name: 'legwork-auth-listener' });
    client.on('notification', () => this.drop());
    client.on('error', (err) => {
      this.logger.warn({ err }, 'auth cache listener lost; looking every credential up until it is back');
      this.reconnect(client);
    });
    client.on('end', () => this.reconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${AUTH_CHANNEL}`);
      this.client = client;
      this.retryMs = 500;
      this.drop();
      this.listening = !this.stopped;
      if (this.stopped) await client.end().catch(() => undefined);
    } catch (err) {
      this.logger.warn({ err }, 'auth cache listener could not connect; looking every credential up');
      this.reconnect(client);
    }
  }

  private reconnect(client: Client): void {
    if (this.client === client || this.client === null) {
      this.listening = false;
      this.drop();
    }
    if (this.stopped || this.timer) return;
    if (this.client === client) this.client = null;
    client.end().catch(() => undefined);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, this.retryMs);
    this.timer.unref();
    this.retryMs = Math.min(this.retryMs * 2, 30_000);
  }
}
