import { Gauge } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { Logger } from '../common/logging/logger';
import { sqlRows } from '../database/sql';
import { registry } from './metrics';

/** Runs the ledger's invariant check (escrow's checkLedger) and returns how many violations it found. */
export type LedgerCheck = (db: DataSource) => Promise<number>;

/** The ledger check reads every account and journal: at most this often, in the background, never on a scrape. */
export const LEDGER_CHECK_INTERVAL_MS = 5 * 60_000;

/**
 * Gauges read from the database, which every process sees alike: exported by one process only (the job runner, or
 * an API that runs jobs in process; see observability.module.ts), so a sum over pods never counts them twice.
 * They are read when Prometheus scrapes; a read that fails leaves the gauge out of that scrape (an absent series,
 * which the alerts' `absent()` rules and the dashboard show) rather than failing the whole scrape.
 */
export class DatabaseGauges {
  private lastLedgerCheck = 0;
  private ledgerRunning: Promise<void> | null = null;

  constructor(
    private readonly db: DataSource,
    readonly logger: Logger,
    private readonly ledgerCheck: LedgerCheck | null,
  ) {}

  /** Escrow held for open tasks (the sum of the task_escrow accounts), in cents. */
  async escrowHeldCents(): Promise<number> {
    const [row] = await sqlRows<{ cents: string }>(
      this.db,
      `SELECT COALESCE(sum(balance), 0)::text AS cents FROM ledger_accounts WHERE kind = 'task_escrow'`,
    );
    return Number(row.cents);
  }

  /** Events committed but not yet published (turned into deliveries and socket messages), and the oldest's age. */
  async outbox(): Promise<{ pending: number; oldestSeconds: number }> {
    const [row] = await sqlRows<{ pending: string; oldest: string | null }>(
      this.db,
      `SELECT count(*)::text AS pending, EXTRACT(EPOCH FROM now() - min(created_at))::text AS oldest
         FROM events WHERE published_at IS NULL`,
    );
    return { pending: Number(row.pending), oldestSeconds: Math.max(0, Number(row.oldest ?? 0)) };
  }

  /** Webhook deliveries still to be made (due now or scheduled for a retry). */
  async deliveriesPending(): Promise<number> {
    const [row] = await sqlRows<{ n: string }>(
      this.db,
      `SELECT count(*)::text AS n FROM webhook_deliveries WHERE status = 'pending'`,
    );
    return Number(row.n);
  }

  /** pg-boss jobs not yet finished, by queue and state; nothing before pg-boss has created its schema. */
  async jobs(): Promise<{ queue: string; state: string; count: number }[]> {
    const [exists] = await sqlRows<{ ok: boolean }>(
      this.db,
      `SELECT to_regclass('pgboss.job') IS NOT NULL AS ok`,
    );
    if (!exists.ok) return [];
    const rows = await sqlRows<{ queue: string; state: string; n: string }>(
      this.db,
      `SELECT name AS queue, state::text AS state, count(*)::text AS n FROM pgboss.job
        WHERE state IN ('created', 'retry', 'active', 'failed') GROUP BY name, state`,
    );
    return rows.map((r) => ({ queue: r.queue, state: r.state, count: Number(r.n) }));
  }

  /** The last ledger check's result; starts a new check in the background when the last is older than the interval. */
  ledger(): { violations: number; checkedAt: number } | null {
    if (
      this.ledgerCheck &&
      !this.ledgerRunning &&
      Date.now() - this.lastLedgerCheck >= LEDGER_CHECK_INTERVAL_MS
    ) {
      this.ledgerRunning = this.runLedgerCheck().finally(() => (this.ledgerRunning = null));
    }
    return ledgerResult;
  }

  /** Runs the ledger check now (the first scrape after start, and tests). */
  async runLedgerCheck(): Promise<void> {
    if (!this.ledgerCheck) return;
    this.lastLedgerCheck = Date.now();
    try {
      ledgerResult = { violations: await this.ledgerCheck(this.db), checkedAt: Date.now() };
      if (ledgerResult.violations > 0) {
        this.logger.error({ violations: ledgerResult.violations }, 'ledger check found violations');
      }
    } catch (err) {
      this.logger.error({ err }, 'ledger check could not run');
    }
  }
}

/** The process's one exporter of database gauges (null: this process exports none). */
let active: DatabaseGauges | null = null;
let ledgerResult: { violations: number; checkedAt: number } | null = null;

export function exportDatabaseGauges(gauges: DatabaseGauges | null): void {
  active = gauges;
  if (!gauges) ledgerResult = null;
}

async function read<T>(what: string, f: (g: DatabaseGauges) => Promise<T>): Promise<T | null> {
  if (!active) return null;
  const gauges = active;
  try {
    return await f(gauges);
  } catch (err) {
    gauges.logger.warn({ err, gauge: what }, 'metrics: database gauge not read');
    return null;
  }
}

new Gauge({
  name: 'legwork_escrow_held_cents',
  help: 'Money held in escrow for tasks, in cents (the sum of the task escrow accounts).',
  registers: [registry],
  async collect() {
    this.reset();
    const cents = await read('escrow', (g) => g.escrowHeldCents());
    if (cents !== null) this.set(cents);
  },
});

const outboxOldest = new Gauge({
  name: 'legwork_outbox_oldest_seconds',
  help: 'Age of the oldest event not yet published (0 when none is pending).',
  registers: [registry],
});

new Gauge({
  name: 'legwork_outbox_pending',
  help: 'Events committed but not yet published to webhooks and sockets.',
  registers: [registry],
  async collect() {
    this.reset();
    outboxOldest.reset();
    const outbox = await read('outbox', (g) => g.outbox());
    if (outbox === null) return;
    this.set(outbox.pending);
    outboxOldest.set(outbox.oldestSeconds);
  },
});

new Gauge({
  name: 'legwork_webhook_deliveries_pending',
  help: 'Webhook deliveries still to be made (due, or waiting for a retry).',
  registers: [registry],
  async collect() {
    this.reset();
    const n = await read('deliveries', (g) => g.deliveriesPending());
    if (n !== null) this.set(n);
  },
});

new Gauge({
  name: 'legwork_jobs',
  help: 'pg-boss jobs not finished, by queue and state (created, retry, active, failed).',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const j of (await read('jobs', (g) => g.jobs())) ?? [])
      this.set({ queue: j.queue, state: j.state }, j.count);
  },
});

const ledgerCheckedAt = new Gauge({
  name: 'legwork_ledger_check_timestamp_seconds',
  help: 'When the ledger invariant check last ran (Unix time).',
  registers: [registry],
});

new Gauge({
  name: 'legwork_ledger_violations',
  help: 'Ledger invariant violations found by the last check (0: the ledger is clean); every 5 minutes.',
  registers: [registry],
  collect() {
    this.reset();
    ledgerCheckedAt.reset();
    const result = active?.ledger() ?? null;
    if (!result) return;
    this.set(result.violations);
    ledgerCheckedAt.set(result.checkedAt / 1000);
  },
});
