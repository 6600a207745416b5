import { sqlRows, type SqlRunner } from '../database/sql';

export interface LedgerViolation {
  invariant: string;
  detail: string;
}

export interface LedgerReport {
  ok: boolean;
  checked_at: string;
  accounts: number;
  journals: number;
  violations: LedgerViolation[];
}

/**
 * The ledger's invariants (product-decisions §2), each one SQL query that returns the offending rows. Run by
 * `npm run ledger:check`, by the operator endpoint, and after every e2e test file.
 */
const CHECKS: { invariant: string; sql: string; describe: (r: Record<string, string>) => string }[] = [
  {
    invariant: 'all balances sum to zero',
    sql: `SELECT COALESCE(sum(balance), 0)::text AS total FROM ledger_accounts HAVING COALESCE(sum(balance), 0) <> 0`,
    describe: (r) => `sum of balances is ${r.total}`,
  },
  {
    invariant: 'cached balance equals the sum of postings',
    sql: `SELECT a.code, a.balance::text AS balance, COALESCE(p.total, 0)::text AS postings
            FROM ledger_accounts a
            LEFT JOIN (SELECT account_id, sum(amount) AS total FROM ledger_postings GROUP BY account_id) p
                   ON p.account_id = a.id
           WHERE a.balance <> COALESCE(p.total, 0)`,
    describe: (r) => `${r.code}: cached ${r.balance}, postings ${r.postings}`,
  },
  {
    invariant: 'no customer account below zero',
    sql: `SELECT code, balance::text AS balance FROM ledger_accounts
           WHERE kind IN ('agent_available', 'task_escrow', 'worker_available', 'worker_withdrawing', 'platform_fees',
                          'agent_owed')
             AND balance < 0`,
    describe: (r) => `${r.code} is ${r.balance}`,
  },
  {
    // Product-decisions §19: what agents owe is mirrored by platform:credit, in total and per agent (the credit
    // postings of the agent's journals), and the platform's advances are exactly what is owed.
    invariant: 'owed equals minus credit, in total',
    sql: `SELECT (SELECT COALESCE(sum(balance), 0) FROM ledger_accounts WHERE kind = 'agent_owed')::text AS owed,
                 (SELECT COALESCE(sum(balance), 0) FROM ledger_accounts WHERE kind = 'platform_credit')::text AS credit,
                 (SELECT COALESCE(sum(balance), 0) FROM ledger_accounts WHERE kind = 'platform_advances')::text AS advances
          WHERE (SELECT COALESCE(sum(balance), 0) FROM ledger_accounts WHERE kind = 'agent_owed')
                  <> -(SELECT COALESCE(sum(balance), 0) FROM ledger_accounts WHERE kind = 'platform_credit')
             OR (SELECT COALESCE(sum(balance), 0) FROM ledger_accounts WHERE kind = 'platform_advances')
                  <> (SELECT COALESCE(sum(balance), 0) FROM ledger_accounts WHERE kind = 'platform_credit')`,
    describe: (r) => `owed ${r.owed}, credit ${r.credit}, advances ${r.advances}`,
  },
  {
    invariant: 'owed equals minus credit, per agent',
    sql: `WITH credit AS (
            SELECT j.agent_id, sum(p.amount) AS total FROM ledger_postings p
              JOIN ledger_journals j ON j.id = p.journal_id
              JOIN ledger_accounts a ON a.id = p.account_id AND a.kind = 'platform_credit'
             GROUP BY j.agent_id),
          owed AS (SELECT agent_id, balance FROM ledger_accounts WHERE kind = 'agent_owed')
          SELECT COALESCE(o.agent_id, c.agent_id)::text AS agent, COALESCE(o.balance, 0)::text AS owed,
                 COALESCE(c.total, 0)::text AS credit
            FROM owed o FULL JOIN credit c ON c.agent_id = o.agent_id
           WHERE COALESCE(o.balance, 0) <> -COALESCE(c.total, 0)`,
    describe: (r) => `agent ${r.agent}: owed ${r.owed}, credit ${r.credit}`,
  },
  {
    invariant: 'every journal sums to zero',
    sql: `SELECT j.reference, COALESCE(sum(p.amount), 0)::text AS total, count(p.id)::text AS postings
            FROM ledger_journals j LEFT JOIN ledger_postings p ON p.journal_id = j.id
           GROUP BY j.id HAVING COALESCE(sum(p.amount), 0) <> 0 OR count(p.id) < 2`,
    describe: (r) => `${r.reference}: sum ${r.total} over ${r.postings} postings`,
  },
];

/** Only checked once the tasks table exists (the task lifecycle migration). */
const TERMINAL_TASK_ESCROW = {
  invariant: 'terminal tasks hold no escrow',
  sql: `SELECT t.id::text AS task, t.status, a.balance::text AS balance
          FROM tasks t JOIN ledger_accounts a ON a.code = 'task:' || t.id || ':escrow'
         WHERE t.status IN ('completed', 'failed', 'cancelled') AND a.balance <> 0`,
  describe: (r: Record<string, string>) => `task ${r.task} is ${r.status} with escrow ${r.balance}`,
};

/** `db`: a DataSource, an EntityManager or a wrapper around a bare pg client (the CLI's). */
export async function checkLedger(db: SqlRunner, now: Date = new Date()): Promise<LedgerReport> {
  const checks = [...CHECKS];
  const [{ has_tasks }] = await sqlRows<{ has_tasks: boolean }>(
    db,
    `SELECT to_regclass('public.tasks') IS NOT NULL AS has_tasks`,
  );
  if (has_tasks) checks.push(TERMINAL_TASK_ESCROW);
  const violations: LedgerViolation[] = [];
  for (const check of checks) {
    const rows = await sqlRows<Record<string, string>>(db, check.sql);
    for (const r of rows) violations.push({ invariant: check.invariant, detail: check.describe(r) });
  }
  const [counts] = await sqlRows<{ accounts: string; journals: string }>(
    db,
    `SELECT (SELECT count(*) FROM ledger_accounts)::text AS accounts, (SELECT count(*) FROM ledger_journals)::text AS journals`,
  );
  return {
    ok: violations.length === 0,
    checked_at: now.toISOString(),
    accounts: Number(counts.accounts),
    journals: Number(counts.journals),
    violations,
  };
}

/** How many invariants the ledger breaks now (the metrics' legwork_ledger_violations; 0: clean). */
export async function ledgerViolations(db: SqlRunner): Promise<number> {
  return (await checkLedger(db)).violations.length;
}
