import { Pool } from 'pg';
import { JOBS_SESSION_SETTINGS } from '../../../src/database/data-source';
import type { BenchContext } from '../context';

/** The schema the events baselines run in (see cloneSchema). */
export const BASELINE_SCHEMA = 'bench_events';

/** Tables the baselines write: the cancellation's, the outbox and the delivery queue. */
const CLONED = [
  'tasks',
  'assignments',
  'ledger_accounts',
  'ledger_journals',
  'ledger_postings',
  'events',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_delivery_attempts',
];

/**
 * The events baselines cannot use the API's own tables: the server's outbox publisher and delivery runner poll them
 * every second and would publish the baseline's events and send its deliveries. So they run against copies in a
 * schema of their own: same columns, defaults, identities, indexes and checks (LIKE ... INCLUDING ALL), the same
 * foreign keys (re-created from the originals, pointing at the copies where there are copies and at public tables
 * otherwise), and the outbox NOTIFY triggers on a channel the server does not listen to. A pool whose search_path
 * puts the schema first runs the server's SQL text unchanged against the copies.
 */
export async function cloneSchema(ctx: BenchContext): Promise<Pool> {
  await ctx.db.query(`DROP SCHEMA IF EXISTS ${BASELINE_SCHEMA} CASCADE`);
  await ctx.db.query(`CREATE SCHEMA ${BASELINE_SCHEMA}`);
  for (const t of CLONED) {
    await ctx.db.query(`CREATE TABLE ${BASELINE_SCHEMA}.${t} (LIKE public.${t} INCLUDING ALL)`);
  }
  const { rows } = await ctx.db.query<{ tbl: string; name: string; def: string }>(
    `SELECT c.conrelid::regclass::text AS tbl, c.conname AS name, pg_get_constraintdef(c.oid) AS def
       FROM pg_constraint c
      WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
        AND c.conrelid::regclass::text = ANY($1::text[])`,
    [CLONED],
  );
  const db = baselinePool(ctx);
  // Unqualified names in the definitions resolve to the copies first (search_path), then to public.
  for (const fk of rows) await db.query(`ALTER TABLE ${fk.tbl} ADD CONSTRAINT ${fk.name} ${fk.def}`);
  await db.query(`
    CREATE FUNCTION notify_events() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('${BASELINE_SCHEMA}_events', '');
      RETURN NULL;
    END $$`);
  await db.query(
    `CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION notify_events()`,
  );
  return db;
}

/** The delivery baseline's pool: the runner's statements on the copies, with the jobs pool's session settings. */
export function baselinePool(ctx: BenchContext, max = ctx.poolSize): Pool {
  return new Pool({
    connectionString: ctx.databaseUrl,
    max,
    application_name: 'legwork-bench-baseline',
    options: `-c search_path=${BASELINE_SCHEMA},public ${JOBS_SESSION_SETTINGS}`,
  });
}
