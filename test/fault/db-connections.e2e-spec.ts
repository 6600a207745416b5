import { Client } from 'pg';
import { ERROR_CODES } from '../../src/common/errors/api-error';
import { InstanceLease } from '../../src/idempotency/instance-lease';
import { checkLedger } from '../../src/escrow/ledger-check';
import { createAgent, TestAgent, uniqueKey } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { SERVER_URL } from '../support/databases';
import { taskBody } from '../support/tasks';

interface Attempt {
  agent: TestAgent;
  key: string;
  body: Record<string, unknown>;
}

/**
 * PostgreSQL connections terminated (pg_terminate_backend) while task creations run: every request either
 * succeeds or fails cleanly with a 5xx error envelope, nothing is half-written (no task without its hold, ledger
 * clean), retries with the same Idempotency-Key end with exactly one task per key, and the pool recovers.
 */
describe('fault: database connections terminated under load', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
  });
  afterAll(() => t.close());

  async function terminateAll(admin: Client): Promise<number> {
    const { rows } = await admin.query<{ n: number }>(
      `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [t.databaseName],
    );
    return rows[0].n;
  }

  function send(a: Attempt) {
    return t.http
      .post('/v1/tasks/create')
      .set('Authorization', a.agent.key)
      .set('Idempotency-Key', a.key)
      .send(a.body);
  }

  it('requests fail cleanly, nothing is half-written, retries settle every key once, the pool recovers', async () => {
    const agents = await Promise.all(
      Array.from({ length: 6 }, () => createAgent(t, { balanceCents: 10_000_000 })),
    );
    const attempts: Attempt[] = [];
    const answers: { status: number; body: { error?: { code: string; message: string } } }[] = [];
    let storming = true;
    const clients = Array.from({ length: 12 }, async (_, i) => {
      while (storming) {
        const a = { agent: agents[i % agents.length], key: uniqueKey('term'), body: taskBody(t) };
        attempts.push(a);
        const res = await send(a);
        answers.push({ status: res.status, body: res.body });
      }
    });
    const admin = new Client({ connectionString: SERVER_URL, application_name: 'legwork-fault-terminator' });
    await admin.connect();
    let terminated = 0;
    try {
      for (let round = 0; round < 25; round++) {
        await new Promise((r) => setTimeout(r, 60));
        terminated += await terminateAll(admin);
      }
    } finally {
      storming = false;
      await admin.end();
    }
    await Promise.all(clients);

    // The storm really cut connections and really failed requests.
    expect(terminated).toBeGreaterThan(0);
    const failed = answers.filter((a) => a.status !== 201);
    expect(failed.length).toBeGreaterThan(0);
    for (const a of failed) {
      expect(a.status).toBeGreaterThanOrEqual(500);
      expect(Object.keys(ERROR_CODES)).toContain(a.body.error?.code);
      expect(ERROR_CODES[a.body.error!.code as keyof typeof ERROR_CODES]).toBe(a.status);
      expect(typeof a.body.error?.message).toBe('string');
    }

    // Nothing half-written: every task has exactly its hold, every hold its task.
    const [orphans]: { tasks_without_hold: number; holds_without_task: number }[] = await t.db.query(
      `SELECT (SELECT count(*) FROM tasks t WHERE NOT EXISTS
                 (SELECT 1 FROM ledger_journals j WHERE j.reference = 'task:' || t.id || ':hold'))::int AS tasks_without_hold,
              (SELECT count(*) FROM ledger_journals j WHERE j.kind = 'escrow_hold' AND NOT EXISTS
                 (SELECT 1 FROM tasks t WHERE t.id = j.task_id))::int AS holds_without_task`,
    );
    expect(orphans).toEqual({ tasks_without_hold: 0, holds_without_task: 0 });

    // Clients retry what failed with the same key: every key ends with exactly one task.
    const final = await Promise.all(
      attempts.map(async (a) => {
        for (let i = 0; ; i++) {
          const res = await send(a);
          if (res.status === 201 || i >= 20) return res;
          await new Promise((r) => setTimeout(r, 200));
        }
      }),
    );
    expect(final.map((r) => r.status)).toEqual(attempts.map(() => 201));
    const ids = new Set(final.map((r) => r.body.task_id as string));
    expect(ids.size).toBe(attempts.length);
    const [{ n }]: { n: number }[] = await t.db.query(`SELECT count(*)::int AS n FROM tasks`);
    expect(n).toBe(attempts.length);

    // The pool recovered: fresh requests all succeed.
    const fresh = await Promise.all(
      agents.map((agent) => send({ agent, key: uniqueKey('after'), body: taskBody(t) })),
    );
    expect(fresh.map((r) => r.status)).toEqual(agents.map(() => 201));

    // The instance lease took its advisory lock again.
    const lease = t.app.get(InstanceLease).key;
    for (let i = 0; i < 100; i++) {
      const [{ held }]: { held: boolean }[] = await t.db.query(
        `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
                          AND (classid::bigint << 32) + objid::bigint = $1::bigint) AS held`,
        [lease],
      );
      if (held) break;
      if (i === 99) throw new Error('the instance lease never came back');
      await new Promise((r) => setTimeout(r, 100));
    }

    const report = await checkLedger(t.db);
    expect(report.violations).toEqual([]);
  }, 120_000);
});
