import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { Logger } from '../common/logging/logger';
import { sqlExec, sqlRows, type SqlRunner } from '../database/sql';
import type { ApiUsageDailyRow } from './auth.rows';

const FLUSH_INTERVAL_MS = 2_000;

/**
 * Counts API use in memory and writes it in batches: api_keys.usage_count / last_used_at, agents.last_used_at and
 * the per-day request counts behind usage statistics. One write per key per interval instead of one per request,
 * so authentication never queues behind row locks on a hot key. At most one interval of counts is lost on a crash.
 * Key counts are held per key *value* (its hash): a rotation keeps the key id but resets usage, so counts of the old
 * value that are still pending here (or in another instance) must not land on the new one.
 */
@Injectable()
export class UsageTracker implements OnModuleInit, OnApplicationShutdown {
  private keys = new Map<string, { id: string; hash: string; count: number; last: Date }>();
  private agents = new Map<string, Date>();
  private daily = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => {
      this.flush().catch((err: unknown) => this.logger.warn({ err }, 'usage flush failed'));
    }, FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush().catch(() => undefined);
  }

  /** Counts one authenticated request of an agent, through the given API key (id and key_hash) or a JWT (null). */
  record(agentId: string, key: { id: string; hash: string } | null): void {
    const now = this.clock.now();
    if (key) {
      const mapKey = `${key.id}|${key.hash}`;
      const k = this.keys.get(mapKey);
      if (k) {
        k.count++;
        k.last = now;
      } else this.keys.set(mapKey, { id: key.id, hash: key.hash, count: 1, last: now });
    }
    this.agents.set(agentId, now);
    const dayKey = `${agentId}|${now.toISOString().slice(0, 10)}`;
    this.daily.set(dayKey, (this.daily.get(dayKey) ?? 0) + 1);
  }

  async flush(): Promise<void> {
    const keys = this.keys;
    const agents = this.agents;
    const daily = this.daily;
    this.keys = new Map();
    this.agents = new Map();
    this.daily = new Map();
    if (keys.size > 0) {
      const rows = [...keys.values()];
      await sqlExec(
        this.ds,
        `UPDATE api_keys k SET usage_count = k.usage_count + v.n, last_used_at = GREATEST(k.last_used_at, v.t)
           FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::timestamptz[]) AS v(id, h, n, t)
          WHERE k.id = v.id AND k.key_hash = v.h`,
        [rows.map((v) => v.id), rows.map((v) => v.hash), rows.map((v) => v.count), rows.map((v) => v.last)],
      );
    }
    if (agents.size > 0) {
      await sqlExec(
        this.ds,
        `UPDATE agents a SET last_used_at = GREATEST(a.last_used_at, v.t)
           FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, t) WHERE a.id = v.id`,
        [[...agents.keys()], [...agents.values()]],
      );
    }
    if (daily.size > 0) {
      const entries = [...daily.entries()].map(([k, n]) => [...k.split('|'), n] as [string, string, number]);
      await sqlExec(
        this.ds,
        `INSERT INTO api_usage_daily (agent_id, day, requests)
           SELECT id, day, n FROM unnest($1::uuid[], $2::date[], $3::bigint[]) AS v(id, day, n)
           WHERE EXISTS (SELECT 1 FROM agents WHERE agents.id = v.id)
         ON CONFLICT (agent_id, day) DO UPDATE SET requests = api_usage_daily.requests + EXCLUDED.requests`,
        [entries.map((e) => e[0]), entries.map((e) => e[1]), entries.map((e) => e[2])],
      );
    }
  }
}

/** The agent's counted requests per UTC day from firstDay to lastDay (YYYY-MM-DD, both included); zeros absent. */
export async function requestsByDay(
  db: SqlRunner,
  agentId: string,
  firstDay: string,
  lastDay: string,
): Promise<Map<string, number>> {
  const rows = await sqlRows<Pick<ApiUsageDailyRow, 'day'> & { requests: string }>(
    db,
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, requests::text AS requests
       FROM api_usage_daily WHERE agent_id = $1 AND day BETWEEN $2::date AND $3::date`,
    [agentId, firstDay, lastDay],
  );
  return new Map(rows.map((r) => [r.day, Number(r.requests)]));
}
