import { createHash } from 'node:crypto';
import { MigrationInterface, QueryRunner } from 'typeorm';

interface LegacyCredit {
  journal_id: string;
  admin_id: string;
  agent_id: string;
  amount_cents: string;
  reason: string;
  idempotency_key: string;
  balance_after_cents: string;
  created_at: Date;
}

/**
 * One store for every idempotency key. Until now the table held only the Idempotency-Key header's answers, while
 * task creation's body idempotency_key was looked up on tasks (idempotency_key, idempotency_request_hash, a unique
 * index) and an operator credit's key lived in its journal reference. Each key now has a scope within the agent's
 * keys: `request` (the header, 24 hours), `task` (the body key) and `admin_credit` (an operator's key for a credit to
 * the agent); the last two never expire, as before. Existing body keys and credit keys are copied in with the answer
 * they replay (the 201 body, rebuilt as the service built it), then the task columns go.
 */
export class IdempotencyScopes1732200040000 implements MigrationInterface {
  name = 'IdempotencyScopes1732200040000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys ADD COLUMN scope text NOT NULL DEFAULT 'request'
                     CONSTRAINT idempotency_keys_scope_check CHECK (scope IN ('request', 'task', 'admin_credit'))`);
    await q.query(`ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey,
                     ADD PRIMARY KEY (agent_id, scope, key)`);

    // A task created before its body hash was recorded (NULL) answered every repeat with a conflict; '' keeps that.
    await q.query(`
      INSERT INTO idempotency_keys (agent_id, scope, key, request_hash, status_code, response, created_at,
                                    expires_at, claim_token)
      SELECT agent_id, 'task', idempotency_key, COALESCE(idempotency_request_hash, ''), 201,
             jsonb_build_object(
               'task_id', id,
               'status', 'pending',
               'estimated_completion_at', ${iso('estimated_completion_at')},
               'cost_breakdown', jsonb_build_object(
                 'worker_payout_cents', payout_cents * max_workers,
                 'platform_fee_cents', fee_cents * max_workers,
                 'total_cents', total_cents),
               'created_at', ${iso('created_at')}),
             created_at, 'infinity', gen_random_uuid()
        FROM tasks WHERE idempotency_key IS NOT NULL`);
    await q.query(`DROP INDEX tasks_idempotency_key`);
    await q.query(`ALTER TABLE tasks DROP COLUMN idempotency_key, DROP COLUMN idempotency_request_hash`);

    const credits: LegacyCredit[] = await q.query(
      `SELECT * FROM admin_credits WHERE idempotency_key IS NOT NULL ORDER BY journal_id`,
    );
    for (const c of credits) {
      await q.query(
        `INSERT INTO idempotency_keys (agent_id, scope, key, request_hash, status_code, response, created_at,
                                       expires_at, claim_token)
         VALUES ($1, 'admin_credit', $2, $3, 201, $4, $5, 'infinity', gen_random_uuid())`,
        [c.agent_id, c.idempotency_key, creditHash(c), JSON.stringify(creditResponse(c)), c.created_at],
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE tasks ADD COLUMN idempotency_key text, ADD COLUMN idempotency_request_hash text`,
    );
    await q.query(`
      UPDATE tasks t SET idempotency_key = k.key, idempotency_request_hash = NULLIF(k.request_hash, '')
        FROM idempotency_keys k
       WHERE k.scope = 'task' AND k.status_code = 201 AND t.id = (k.response->>'task_id')::uuid`);
    await q.query(
      `CREATE UNIQUE INDEX tasks_idempotency_key ON tasks (agent_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
    );
    // Credit keys need no copy back: the journal reference carries them.
    await q.query(`DELETE FROM idempotency_keys WHERE scope <> 'request'`);
    await q.query(
      `ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey, ADD PRIMARY KEY (agent_id, key)`,
    );
    await q.query(`ALTER TABLE idempotency_keys DROP COLUMN scope`);
  }
}

/** A timestamptz as JavaScript's toISOString writes it (milliseconds, UTC, `Z`), as the service stored it. */
function iso(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * requestHash('admin-credit', {amount_cents, reason}) as src/idempotency/canonical-json.ts computes it: the
 * SHA-256 of the JSON of the parts with object keys sorted (these two already are). Written out so that this
 * migration stays what it was when it ran.
 */
function creditHash(c: LegacyCredit): string {
  const canonical = JSON.stringify([
    'admin-credit',
    { amount_cents: Number(c.amount_cents), reason: c.reason },
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** The credit's 201 body, as AdminCreditService answered it. */
function creditResponse(c: LegacyCredit): Record<string, unknown> {
  const balance = Number(c.balance_after_cents);
  return {
    transaction_id: `txn_${c.journal_id}`,
    agent_id: c.agent_id,
    amount_cents: Number(c.amount_cents),
    reason: c.reason,
    balance_cents: balance,
    balance_rmb: balance / 100,
    credited_by: c.admin_id,
    created_at: c.created_at,
  };
}
