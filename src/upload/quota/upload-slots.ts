import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';

/**
 * Upload slots: how many uploads a worker has in flight, counted across every instance. A slot is a lease that
 * expires by itself (LEASE_MS, longer than any request may last: Node ends a request after 5 minutes), so a crashed
 * instance cannot keep a worker's slots taken.
 */
export interface UploadSlots {
  /** A slot for this worker, or null when all `max` are taken. */
  acquire(workerId: string, max: number, nowMs: number): Promise<UploadSlot | null>;
  close(): Promise<void>;
}

export interface UploadSlot {
  release(): Promise<void>;
}

export const LEASE_MS = 10 * 60_000;

/** One instance: slots in this process. */
export class MemoryUploadSlots implements UploadSlots {
  private readonly leases = new Map<string, Map<string, number>>();

  async acquire(workerId: string, max: number, nowMs: number): Promise<UploadSlot | null> {
    const mine = this.leases.get(workerId) ?? new Map<string, number>();
    for (const [id, expires] of mine) if (expires <= nowMs) mine.delete(id);
    if (mine.size >= max) return null;
    const id = randomUUID();
    mine.set(id, nowMs + LEASE_MS);
    this.leases.set(workerId, mine);
    return {
      release: async () => {
        mine.delete(id);
        if (mine.size === 0 && this.leases.get(workerId) === mine) this.leases.delete(workerId);
      },
    };
  }

  async close(): Promise<void> {
    this.leases.clear();
  }
}

/** Drops expired leases, then takes one if fewer than ARGV[2] remain: atomic on the Redis server. */
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

/**
 * Several instances: a sorted set per worker in Redis (lease id scored by its expiry). If Redis is unreachable
 * the instance counts in its own memory instead, as the rate limiter does: the quota then holds per instance.
 */
export class RedisUploadSlots implements UploadSlots {
  private readonly fallback = new MemoryUploadSlots();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly onFallback: (err: unknown) => void = () => undefined,
  ) {}

  async acquire(workerId: string, max: number, nowMs: number): Promise<UploadSlot | null> {
    const key = `${this.prefix}:upload-slots:${workerId}`;
    const id = randomUUID();
    let taken: unknown;
    try {
      taken = await this.redis.eval(ACQUIRE, 1, key, nowMs, max, nowMs + LEASE_MS, id, LEASE_MS);
    } catch (err) {
      this.onFallback(err);
      return this.fallback.acquire(workerId, max, nowMs);
    }
    if (Number(taken) !== 1) return null;
    return {
      release: async () => {
        await this.redis.zrem(key, id).catch(() => undefined); // else the lease expires by itself
      },
    };
  }

  async close(): Promise<void> {
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }
}
