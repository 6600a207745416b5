import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { NotificationListener } from '../database/notification-listener';

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
 *   (or the row goes), whoever changes it (the API, an operator's SQL). Every instance LISTENs (on the process's
 *   one listening connection, NotificationListener) and drops everything it holds on a notification. Another
 *   instance therefore stops accepting a disabled or rotated key as soon as the notification reaches it
 *   (milliseconds after the commit).
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
  private listening = false;
  private stopped = false;
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(private readonly listener: NotificationListener) {}

  async onApplicationBootstrap(): Promise<void> {
    this.unsubscribe = await this.listener.subscribe({
      channels: [AUTH_CHANNEL],
      notify: () => this.drop(),
      // Notifications may have been missed while not listening: nothing held before is trusted.
      up: () => {
        this.drop();
        this.listening = !this.stopped;
      },
      down: () => {
        this.listening = false;
        this.drop();
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    this.drop();
    await this.unsubscribe?.();
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
    await this.listener.settled();
  }

  private drop(): void {
    this.epoch++;
    this.maps.clear();
  }
}
