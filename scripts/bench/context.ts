import type { Pool } from 'pg';
import type { LoadResult } from './load';
import type { PgbenchResult } from './pgbench';
import type { ServerProcess } from './server';
import type { LatencySummary } from './stats';

/** What every scenario gets: the running server, a pool on its database, and the run's settings. */
export interface BenchContext {
  server: ServerProcess;
  db: Pool;
  databaseUrl: string;
  /** Scratch directory of this run (pgbench scripts and logs). */
  dir: string;
  /** Seconds per measured load run. */
  seconds: number;
  /** The API's database pool size; baselines use as many connections. */
  poolSize: number;
  log(message: string): void;
}

/**
 * What an events run measured besides the requests that caused the events: how many deliveries (webhooks) or
 * messages (WebSocket) were expected and arrived, how fast, and the lag from the event's timestamp to receipt.
 */
export interface EventsRun {
  /** Changes made through the API (cancellations) per second while they were being made. */
  changes_per_second: number;
  expected: number;
  /** Distinct (receiver, event) pairs received. */
  received: number;
  duplicates: number;
  missed: number;
  /** Receipts per second from the first to the last receipt. */
  received_per_second: number;
  /** Event timestamp (created_at, set inside the change's transaction) to receipt, in ms. */
  lag: LatencySummary;
}

export interface RunReport {
  label: string;
  api: LoadResult;
  /** Set by the events scenarios (webhooks, websocket): rendered in a table of their own. */
  events?: EventsRun;
  /** Per request kind where a run mixes several (accept and submit). */
  kinds?: Record<string, LatencySummary>;
  baseline?: PgbenchResult;
  /** API requests/s over the baseline's transactions/s. */
  fraction?: number;
  extra?: Record<string, unknown>;
}

export interface ScenarioReport {
  id: string;
  title: string;
  status: 'ok' | 'pending' | 'failed';
  reason?: string;
  runs: RunReport[];
  notes: string[];
  /** Checks made after the load (e.g. exactly 3 winners per task): name -> passed. */
  checks: Record<string, boolean>;
}

export function fraction(apiRps: number, baselineTps: number): number {
  return baselineTps > 0 ? Math.round((apiRps / baselineTps) * 1000) / 1000 : 0;
}
