import { Gauge } from 'prom-client';
import type { DataSource } from 'typeorm';
import { registry } from './metrics';

/** The counts node-postgres keeps on a Pool. */
interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** The process's connection pools by name (`main`: requests; `jobs`: the outbox and webhook deliveries). */
const pools = new Map<string, Set<DataSource>>();

/** Adds a DataSource's pool to the gauges; returns the function that removes it (when the application closes). */
export function watchPool(name: string, ds: DataSource): () => void {
  const set = pools.get(name) ?? new Set<DataSource>();
  pools.set(name, set);
  set.add(ds);
  return () => set.delete(ds);
}

function poolOf(ds: DataSource): PgPool | null {
  const master = (ds.driver as unknown as { master?: PgPool }).master;
  return master && typeof master.totalCount === 'number' ? master : null;
}

new Gauge({
  name: 'legwork_db_pool_connections',
  help: 'PostgreSQL pool connections by pool and state: open (total), idle, and clients waiting for one (waiting).',
  labelNames: ['pool', 'state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [name, set] of pools) {
      const sums = { total: 0, idle: 0, waiting: 0 };
      for (const ds of set) {
        const pool = ds.isInitialized ? poolOf(ds) : null;
        if (!pool) continue;
        sums.total += pool.totalCount;
        sums.idle += pool.idleCount;
        sums.waiting += pool.waitingCount;
      }
      for (const [state, n] of Object.entries(sums)) this.set({ pool: name, state }, n);
    }
  },
});

/** Pool size as configured, to compare open connections with (`max` of the pool). */
new Gauge({
  name: 'legwork_db_pool_max',
  help: 'Configured size of each PostgreSQL pool.',
  labelNames: ['pool'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [name, set] of pools) {
      let max = 0;
      for (const ds of set) max += Number((ds.options.extra as { max?: number } | undefined)?.max ?? 0);
      this.set({ pool: name }, max);
    }
  },
});
