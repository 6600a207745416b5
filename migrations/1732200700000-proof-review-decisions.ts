import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A human before any penalty (product-decisions §18), the people's side (docs/proof-review.md, docs/decisions.md).
 *
 * - proof_reviews: the decision on a held submission (assignments.review_required), one per assignment (the primary
 *   key is the assignment's id, which is also the review's id, so a second decision cannot be stored even if two
 *   got past the task lock). Decided by an operator (confirmed_fraud, cleared) or by the agent's own verdict
 *   (agent_approved, agent_rejected). reversed_at: a person reversed a confirmed fraud after the worker asked.
 *   A held submission without a row is open in the operators' queue.
 * - assignments.hold_cleared_at: an operator cleared the hold; auto-approval runs 72 hours from then.
 * - worker_suspensions: what a confirmed fraud did to the worker's account: suspended (no going on call, no
 *   offers, no taking tasks; signing in still works) and/or withdrawals paused, until lifted.
 * - worker_review_requests: a worker asks a person to look again (POST /v1/worker/reviews). The subject list is a
 *   CHECK so issue 30 (disputes) adds its subject here; one open request per subject.
 */
export class ProofReviewDecisions1732200700000 implements MigrationInterface {
  name = 'ProofReviewDecisions1732200700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE assignments ADD COLUMN hold_cleared_at timestamptz`);
    await q.query(`
      CREATE TABLE worker_suspensions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        worker_id uuid NOT NULL REFERENCES workers (id),
        suspended boolean NOT NULL,
        withdrawals_paused boolean NOT NULL,
        reason text NOT NULL,
        created_by_admin_id uuid REFERENCES admins (id),
        created_at timestamptz NOT NULL,
        lifted_at timestamptz,
        lift_note text,
        CHECK (suspended OR withdrawals_paused)
      )`);
    await q.query(
      `CREATE INDEX worker_suspensions_live ON worker_suspensions (worker_id) WHERE lifted_at IS NULL`,
    );
    await q.query(`
      CREATE TABLE proof_reviews (
        assignment_id uuid PRIMARY KEY REFERENCES assignments (id),
        task_id uuid NOT NULL REFERENCES tasks (id),
        worker_id uuid NOT NULL REFERENCES workers (id),
        outcome text NOT NULL CHECK (outcome IN ('confirmed_fraud', 'cleared', 'agent_approved', 'agent_rejected')),
        decided_by text NOT NULL CHECK (decided_by IN ('operator', 'agent')),
        admin_id uuid REFERENCES admins (id),
        note text,
        suspension_id uuid REFERENCES worker_suspensions (id),
        decided_at timestamptz NOT NULL,
        reversed_at timestamptz,
        CHECK ((decided_by = 'operator') = (admin_id IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX proof_reviews_decided ON proof_reviews (decided_at DESC)`);
    await q.query(
      `CREATE INDEX proof_reviews_fraud ON proof_reviews (worker_id) WHERE outcome = 'confirmed_fraud'`,
    );
    await q.query(`
      CREATE TABLE worker_review_requests (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        worker_id uuid NOT NULL REFERENCES workers (id),
        subject text NOT NULL CHECK (subject IN ('fraud_hold', 'suspension')),
        subject_id uuid NOT NULL,
        statement text NOT NULL,
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'decided')),
        outcome text CHECK (outcome IN ('upheld', 'reversed')),
        admin_id uuid REFERENCES admins (id),
        note text,
        created_at timestamptz NOT NULL,
        decided_at timestamptz,
        CHECK ((status = 'open') = (outcome IS NULL))
      )`);
    await q.query(`CREATE UNIQUE INDEX worker_review_requests_one_open ON worker_review_requests (subject, subject_id)
                     WHERE status = 'open'`);
    await q.query(
      `CREATE INDEX worker_review_requests_status ON worker_review_requests (status, created_at)`,
    );
    await q.query(`CREATE INDEX worker_review_requests_worker ON worker_review_requests (worker_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE worker_review_requests`);
    await q.query(`DROP TABLE proof_reviews`);
    await q.query(`DROP TABLE worker_suspensions`);
    await q.query(`ALTER TABLE assignments DROP COLUMN hold_cleared_at`);
  }
}
