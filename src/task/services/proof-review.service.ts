import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { recordOperatorAction, type AuditActor } from '../../audit/operator-audit';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlExec, sqlRows, type SqlRunner } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { writeEvent } from '../../events/outbox';
import { WorkerReputation } from '../../matching/services/worker-reputation';
import { workerStanding } from '../../matching/worker-standing';
import { REUSE_MAX_DISTANCE } from '../../upload/perceptual-hash';
import { holdDeadline } from '../domain/proof-hold';
import type {
  ListProofReviewsQuery,
  ProofReviewDecisionRequest,
  ProofReviewListResponse,
  ProofReviewMatch,
  ProofReviewOutcome,
  ProofReviewResponse,
  ProofReviewTrailPoint,
} from '../dtos/proof-review.dto';
import { taskResult } from '../task.presenter';
import { mapAssignment, mapTask, TaskRepository, type AssignmentRow, type TaskRow } from '../task.repository';
import { TaskSettlement } from './task-settlement';

/** A proof_reviews row: the decision on one held submission. */
export interface ProofReviewRow {
  assignment_id: string;
  task_id: string;
  worker_id: string;
  outcome: ProofReviewOutcome;
  decided_by: 'operator' | 'agent';
  admin_id: string | null;
  note: string | null;
  suspension_id: string | null;
  decided_at: Date;
  reversed_at: Date | null;
}

/** How far back the operator's view of the position trail reaches from the submission. */
const TRAIL_HOURS = 24;

/** The held submissions nobody decided: still waiting, or approved after 14 days with a note. */
const OPEN_SQL = `a.review_required AND NOT EXISTS (SELECT 1 FROM proof_reviews p WHERE p.assignment_id = a.id)
  AND (a.status = 'submitted' OR (a.status = 'approved' AND a.review_note IS NOT NULL))`;

/** What the worker reads when a fraud is confirmed (the operator's note is for the operators only). */
const FRAUD_REASON =
  'A person reviewed the proof of this task and confirmed it was not genuine (see the signals on your submission). ' +
  'The result is rejected and your reputation lowered. You may ask for a review if you think this is wrong.';
const CLEARED_REASON =
  'A person reviewed the proof of this task and found nothing wrong: it is no longer held. The agent may still decide.';

/**
 * The operators' side of a human before any penalty (product-decisions §18; docs/proof-review.md): the queue of
 * held submissions with the evidence side by side, and the decision on one. A decision locks the task row first
 * (the lock every verdict, sweep and submission of the task takes), so concurrent decisions, the agent's verdict
 * and the 14-day sweep happen one after another; the second decision then finds the first and answers 409, and the
 * proof_reviews primary key (one row per assignment) refuses a second row in any case.
 */
@Injectable()
export class ProofReviewService {
  constructor(
    private readonly ds: DataSource,
    private readonly settlement: TaskSettlement,
    private readonly reputation: WorkerReputation,
    private readonly clock: Clock,
  ) {}

  async list(q: ListProofReviewsQuery): Promise<ProofReviewListResponse> {
    const skip = q.skip ?? 0;
    const limit = q.limit ?? 20;
    const open = (q.status ?? 'open') === 'open';
    const from = open
      ? `FROM assignments a WHERE ${OPEN_SQL}`
      : `FROM assignments a JOIN proof_reviews p ON p.assignment_id = a.id`;
    const order = open ? 'a.submitted_at, a.id' : 'p.decided_at DESC, a.id';
    const [{ total }] = await sqlRows<{ total: number }>(this.ds, `SELECT count(*)::int AS total ${from}`);
    const rows = await sqlRows(this.ds, `SELECT a.* ${from} ORDER BY ${order} OFFSET $1 LIMIT $2`, [
      skip,
      limit,
    ]);
    const items: ProofReviewResponse[] = [];
    for (const r of rows) items.push(await this.view(this.ds, mapAssignment(r)));
    return { items, total, skip, limit, has_more: skip + items.length < total };
  }

  async get(id: string): Promise<ProofReviewResponse> {
    const a = await this.heldAssignment(this.ds, id);
    return this.view(this.ds, a);
  }

  /**
   * confirmed_fraud: a held result still waiting is rejected through the ordinary rejection (its slot's budget back
   * to the agent, the worker told why by assignment.rejected); one already approved after 14 days keeps its money
   * (money is final after approval, §19). Either way the worker loses FRAUD_PENALTY reputation, and is suspended
   * and/or has withdrawals paused when asked. cleared: the hold is lifted and auto-approval runs 72 hours from now.
   * Each writes the audit record and tells the worker (worker.proof_review_decided) in the same transaction.
   */
  async decide(who: AuditActor, id: string, dto: ProofReviewDecisionRequest): Promise<ProofReviewResponse> {
    const fraud = dto.outcome === 'confirmed_fraud';
    if (!fraud && (dto.suspend_worker || dto.pause_withdrawals)) {
      throw ApiError.field(
        dto.suspend_worker ? 'suspend_worker' : 'pause_withdrawals',
        'is only given with confirmed_fraud',
      );
    }
    return inTransaction(this.ds, async (em) => {
      const task = await TaskRepository.lockByAssignment(em, id);
      if (!task) throw notFound();
      const a = await this.heldAssignment(em, id);
      const [done] = await sqlRows<ProofReviewRow>(
        em,
        `SELECT * FROM proof_reviews WHERE assignment_id = $1`,
        [id],
      );
      const open = !done && (a.status === 'submitted' || (a.status === 'approved' && a.review_note !== null));
      if (!open) {
        throw new ApiError('invalid_state', 'This review is already decided.', {
          current_status: done ? `decided:${done.outcome}` : a.status,
        });
      }
      const now = this.clock.now();
      const before = { status: a.status, review_required: a.review_required };
      let suspensionId: string | null = null;
      if (fraud) {
        if (a.status === 'submitted') {
          await this.settlement.refund(em, task, a, now, 'rejected', {
            rating: null,
            quality_score: null,
            feedback_text: FRAUD_REASON,
            reason_code: 'other',
          });
          await this.settlement.reconcileTask(em, task, now);
        }
        if (dto.suspend_worker || dto.pause_withdrawals) {
          suspensionId = await this.restrict(
            em,
            who,
            a.worker_id,
            !!dto.suspend_worker,
            !!dto.pause_withdrawals,
            now,
          );
        }
      } else if (a.status === 'submitted') {
        await sqlExec(
          em,
          `UPDATE assignments SET review_required = false, hold_cleared_at = $2 WHERE id = $1`,
          [a.id, now],
        );
      }
      await sqlExec(
        em,
        `INSERT INTO proof_reviews (assignment_id, task_id, worker_id, outcome, decided_by, admin_id, note,
                                    suspension_id, decided_at)
         VALUES ($1, $2, $3, $4, 'operator', $5, $6, $7, $8)`,
        [a.id, a.task_id, a.worker_id, dto.outcome, who.adminId, dto.note, suspensionId, now],
      );
      // After the row above, so the recomputation counts this confirmation.
      const reputation = await this.reputation.recompute(em, a.worker_id, now);
      const standing = await workerStanding(em, a.worker_id);
      await writeEvent(em, {
        name: 'worker.proof_review_decided',
        workerId: a.worker_id,
        taskId: a.task_id,
        data: {
          review_id: a.id,
          task_id: a.task_id,
          outcome: dto.outcome,
          reason: fraud ? FRAUD_REASON : CLEARED_REASON,
          reputation,
          suspension_id: suspensionId,
          suspended: standing.suspended,
          withdrawals_paused: standing.withdrawals_paused,
        },
        at: now,
      });
      await recordOperatorAction(
        em,
        who,
        {
          action: 'proof_review.decided',
          target: { type: 'assignment', id: a.id },
          before,
          after: {
            outcome: dto.outcome,
            note: dto.note,
            suspension_id: suspensionId,
            suspend_worker: !!dto.suspend_worker,
            pause_withdrawals: !!dto.pause_withdrawals,
            worker_reputation: reputation,
          },
        },
        now,
      );
      return this.view(
        em,
        (await TaskRepository.assignments(em, task.id)).find((x) => x.id === a.id)!,
      );
    });
  }

  /**
   * The agent's own verdict on a held result ends its review (it stays in the decided list as the agent's). Called
   * by the agent's feedback in its transaction, under the task lock; a result already decided by an operator was
   * not submitted any more, so it never reaches here twice.
   */
  static async recordAgentVerdict(
    em: EntityManager,
    a: AssignmentRow,
    approved: boolean,
    now: Date,
  ): Promise<void> {
    if (!a.review_required) return;
    await sqlExec(
      em,
      `INSERT INTO proof_reviews (assignment_id, task_id, worker_id, outcome, decided_by, decided_at)
       VALUES ($1, $2, $3, $4, 'agent', $5) ON CONFLICT (assignment_id) DO NOTHING`,
      [a.id, a.task_id, a.worker_id, approved ? 'agent_approved' : 'agent_rejected', now],
    );
  }

  /** A new suspension and/or withdrawal pause; a suspended worker is taken off call at once. */
  private async restrict(
    em: EntityManager,
    who: AuditActor,
    workerId: string,
    suspend: boolean,
    pause: boolean,
    now: Date,
  ): Promise<string> {
    // The worker row lock that accept and withdrawals take: neither commits after this without seeing it.
    await sqlExec(em, `SELECT 1 FROM workers WHERE id = $1 FOR NO KEY UPDATE`, [workerId]);
    const [row] = await sqlRows<{ id: string }>(
      em,
      `INSERT INTO worker_suspensions (worker_id, suspended, withdrawals_paused, reason, created_by_admin_id, created_at)
       VALUES ($1, $2, $3, 'confirmed_fraud', $4, $5) RETURNING id`,
      [workerId, suspend, pause, who.adminId, now],
    );
    if (suspend) {
      const off = await sqlRows(
        em,
        `UPDATE worker_availability SET online = false, on_call_until = NULL WHERE worker_id = $1 AND online
         RETURNING worker_id`,
        [workerId],
      );
      if (off.length) {
        await writeEvent(em, {
          name: 'worker.off_call',
          workerId,
          data: { online: false, on_call_until: null },
          at: now,
        });
      }
    }
    return row.id;
  }

  /** A submission that was ever held (review_required, or cleared, or decided): else 404. */
  private async heldAssignment(db: SqlRunner, id: string): Promise<AssignmentRow> {
    const rows = await sqlRows(
      db,
      `SELECT a.* FROM assignments a WHERE a.id = $1
          AND (a.review_required OR EXISTS (SELECT 1 FROM proof_reviews p WHERE p.assignment_id = a.id))`,
      [id],
    );
    if (!rows.length) throw notFound();
    return mapAssignment(rows[0]);
  }

  private async view(db: SqlRunner, a: AssignmentRow): Promise<ProofReviewResponse> {
    const [taskRow] = await sqlRows(db, `SELECT * FROM tasks WHERE id = $1`, [a.task_id]);
    const task: TaskRow = mapTask(taskRow);
    const [decision] = await sqlRows<ProofReviewRow>(
      db,
      `SELECT * FROM proof_reviews WHERE assignment_id = $1`,
      [a.id],
    );
    const [worker] = await sqlRows<{ reputation: string; account_status: string; frauds: number }>(
      db,
      `SELECT w.reputation, w.account_status,
              (SELECT count(*)::int FROM proof_reviews p WHERE p.worker_id = w.id AND p.outcome = 'confirmed_fraud'
                  AND p.reversed_at IS NULL) AS frauds
         FROM workers w WHERE w.id = $1`,
      [a.worker_id],
    );
    const standing = await workerStanding(db, a.worker_id);
    const held = !decision && a.status === 'submitted' && a.review_required;
    const hold = held
      ? 'held'
      : a.status === 'approved' && a.review_note !== null
        ? 'approved_after_hold'
        : a.status;
    return {
      review_id: a.id,
      status: decision ? 'decided' : 'open',
      hold,
      note: a.review_note,
      review_deadline_at: held ? holdDeadline(a.submitted_at!).toISOString() : null,
      decision: decision
        ? {
            outcome: decision.outcome,
            decided_by: decision.decided_by,
            operator_id: decision.admin_id,
            note: decision.note,
            decided_at: decision.decided_at.toISOString(),
            suspension_id: decision.suspension_id,
            reversed_at: decision.reversed_at?.toISOString() ?? null,
          }
        : null,
      submission: {
        ...taskResult(a),
        assignment_id: a.id,
        status: a.status,
        submitted_at: a.submitted_at!.toISOString(),
      },
      worker: {
        worker_id: a.worker_id,
        reputation: Number(worker.reputation),
        account_status: worker.account_status,
        suspended: standing.suspended,
        withdrawals_paused: standing.withdrawals_paused,
        suspension_id: standing.suspension_id ?? standing.pause_id,
        confirmed_frauds: worker.frauds,
      },
      task: {
        task_id: task.id,
        agent_id: task.agent_id,
        title: task.title,
        task_type: task.task_type,
        status: task.status,
        location: {
          latitude: task.latitude,
          longitude: task.longitude,
          address: task.address,
          max_distance_meters: task.max_distance_meters,
        },
      },
      reused_matches: await this.matches(db, a),
      travel_trail: await this.trail(db, a),
    };
  }

  /**
   * The earlier photos this submission's photos are near-duplicates of, found again in the platform-wide index the
   * signal came from (same distance rule), recorded before this submission. Operators may see whose they were.
   */
  private async matches(db: SqlRunner, a: AssignmentRow): Promise<ProofReviewMatch[]> {
    const rows = await sqlRows<{
      assignment_id: string;
      task_id: string;
      agent_id: string;
      worker_id: string;
      distance: number;
      created_at: Date;
      photos: { url: string }[] | null;
    }>(
      db,
      `SELECT DISTINCT ON (o.assignment_id) o.assignment_id, o.task_id, o.agent_id, o.worker_id, o.created_at,
              bit_count(int8send(o.phash # m.phash))::int AS distance, oa.photos
         FROM photo_hashes m
         JOIN photo_hashes o ON o.assignment_id <> m.assignment_id AND o.created_at <= m.created_at
                             AND bit_count(int8send(o.phash # m.phash)) <= $2
         JOIN assignments oa ON oa.id = o.assignment_id
        WHERE m.assignment_id = $1
        ORDER BY o.assignment_id, distance`,
      [a.id, REUSE_MAX_DISTANCE],
    );
    return rows
      .sort((x, y) => x.distance - y.distance || x.created_at.getTime() - y.created_at.getTime())
      .slice(0, 20)
      .map((r) => ({
        assignment_id: r.assignment_id,
        task_id: r.task_id,
        agent_id: r.agent_id,
        worker_id: r.worker_id,
        same_worker: r.worker_id === a.worker_id,
        distance_bits: r.distance,
        recorded_at: r.created_at.toISOString(),
        photo_urls: (r.photos ?? []).map((p) => p.url),
      }));
  }

  /** The positions behind impossible_travel: the worker's trail from TRAIL_HOURS before the submission to it. */
  private async trail(db: SqlRunner, a: AssignmentRow): Promise<ProofReviewTrailPoint[]> {
    const at = a.submitted_at!;
    const rows = await sqlRows<{
      latitude: number;
      longitude: number;
      accuracy_m: number | null;
      source: string;
      reported_at: Date;
    }>(
      db,
      `SELECT latitude, longitude, accuracy_m, source, reported_at FROM position_reports
        WHERE worker_id = $1 AND reported_at BETWEEN $2 AND $3 ORDER BY reported_at, id LIMIT 50`,
      [a.worker_id, new Date(at.getTime() - TRAIL_HOURS * 3_600_000), at],
    );
    return rows.map((r) => ({ ...r, reported_at: r.reported_at.toISOString() }));
  }
}

function notFound(): ApiError {
  return new ApiError('not_found', 'No such proof review.');
}
