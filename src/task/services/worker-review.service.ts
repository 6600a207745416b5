import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { recordOperatorAction, type AuditActor } from '../../audit/operator-audit';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlExec, sqlRows, type SqlRunner } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { writeEvent } from '../../events/outbox';
import { WorkerReputation } from '../../matching/services/worker-reputation';
import { workerStanding } from '../../matching/worker-standing';
import { REVIEW_SUBJECT_TABLE, type ReviewOutcome, type ReviewSubject } from '../domain/review-subjects';
import type {
  AdminWorkerReviewListResponse,
  AdminWorkerReviewResponse,
  CreateWorkerReviewRequest,
  ListWorkerReviewsQuery,
  WorkerReviewDecisionRequest,
  WorkerReviewResponse,
  WorkerReviewsResponse,
} from '../dtos/worker-review.dto';

interface ReviewRequestRow {
  id: string;
  worker_id: string;
  subject: ReviewSubject;
  subject_id: string;
  statement: string;
  status: 'open' | 'decided';
  outcome: ReviewOutcome | null;
  admin_id: string | null;
  note: string | null;
  created_at: Date;
  decided_at: Date | null;
}

/** Words for a suspension's reason code (the only one today is a confirmed fraud). */
const SUSPENSION_REASON: Record<string, string> = {
  confirmed_fraud: 'A person confirmed that the proof of one of your submissions was not genuine.',
};

/**
 * A worker asks a person to look again (product-decisions §18; issue 30's disputes reuse the route through
 * REVIEW_SUBJECT_TABLE), and the operators answer. One open request per subject (a partial unique index); an answer
 * locks the request row, so it is given once.
 */
@Injectable()
export class WorkerReviewService {
  constructor(
    private readonly ds: DataSource,
    private readonly reputation: WorkerReputation,
    private readonly clock: Clock,
  ) {}

  async create(actor: WorkerActor, dto: CreateWorkerReviewRequest): Promise<WorkerReviewResponse> {
    const spec = REVIEW_SUBJECT_TABLE[dto.subject];
    try {
      return await inTransaction(this.ds, async (em) => {
        const [subject] = await sqlRows<{ live: boolean }>(em, spec.ownedSql, [dto.subject_id, actor.id]);
        if (!subject) throw new ApiError('not_found', `No such ${dto.subject.replace('_', ' ')} of yours.`);
        if (!subject.live) {
          throw new ApiError(
            'invalid_state',
            'This was already reversed or lifted: there is nothing to review.',
            {
              current_status: 'reversed',
            },
          );
        }
        const [row] = await sqlRows<ReviewRequestRow>(
          em,
          `INSERT INTO worker_review_requests (worker_id, subject, subject_id, statement, created_at)
           VALUES ($1, $2, $3, $4, $5) RETURNING *`,
          [actor.id, dto.subject, dto.subject_id, dto.statement, this.clock.now()],
        );
        return requestView(row);
      });
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      const [open] = await sqlRows<{ id: string }>(
        this.ds,
        `SELECT id FROM worker_review_requests WHERE subject = $1 AND subject_id = $2 AND status = 'open'`,
        [dto.subject, dto.subject_id],
      );
      throw new ApiError(
        'review_already_open',
        'A review of this is already open; a person will answer it.',
        {
          ...(open ? { review_id: open.id } : {}),
        },
      );
    }
  }

  /** The worker's standing: live suspensions, confirmed frauds, and their requests. */
  async mine(actor: WorkerActor): Promise<WorkerReviewsResponse> {
    const standing = await workerStanding(this.ds, actor.id);
    const suspensions = await sqlRows<{
      id: string;
      suspended: boolean;
      withdrawals_paused: boolean;
      reason: string;
      created_at: Date;
    }>(
      this.ds,
      `SELECT id, suspended, withdrawals_paused, reason, created_at FROM worker_suspensions
        WHERE worker_id = $1 AND lifted_at IS NULL ORDER BY created_at`,
      [actor.id],
    );
    const frauds = await sqlRows<{
      assignment_id: string;
      task_id: string;
      decided_at: Date;
      reversed_at: Date | null;
    }>(
      this.ds,
      `SELECT assignment_id, task_id, decided_at, reversed_at FROM proof_reviews
        WHERE worker_id = $1 AND outcome = 'confirmed_fraud' ORDER BY decided_at DESC`,
      [actor.id],
    );
    const requests = await sqlRows<ReviewRequestRow>(
      this.ds,
      `SELECT * FROM worker_review_requests WHERE worker_id = $1 ORDER BY created_at DESC, id LIMIT 100`,
      [actor.id],
    );
    return {
      suspended: standing.suspended,
      withdrawals_paused: standing.withdrawals_paused,
      suspensions: suspensions.map((s) => ({
        suspension_id: s.id,
        suspended: s.suspended,
        withdrawals_paused: s.withdrawals_paused,
        reason: SUSPENSION_REASON[s.reason] ?? s.reason,
        created_at: s.created_at.toISOString(),
      })),
      fraud_holds: frauds.map((f) => ({
        review_id: f.assignment_id,
        task_id: f.task_id,
        decided_at: f.decided_at.toISOString(),
        reversed_at: f.reversed_at?.toISOString() ?? null,
      })),
      requests: requests.map(requestView),
    };
  }

  async list(q: ListWorkerReviewsQuery): Promise<AdminWorkerReviewListResponse> {
    const skip = q.skip ?? 0;
    const limit = q.limit ?? 20;
    const status = q.status ?? 'open';
    const [{ total }] = await sqlRows<{ total: number }>(
      this.ds,
      `SELECT count(*)::int AS total FROM worker_review_requests WHERE status = $1`,
      [status],
    );
    const rows = await sqlRows<ReviewRequestRow>(
      this.ds,
      `SELECT * FROM worker_review_requests WHERE status = $1
        ORDER BY ${status === 'open' ? 'created_at, id' : 'decided_at DESC, id'} OFFSET $2 LIMIT $3`,
      [status, skip, limit],
    );
    const items: AdminWorkerReviewResponse[] = [];
    for (const r of rows) items.push(await this.adminView(this.ds, r));
    return { items, total, skip, limit, has_more: skip + items.length < total };
  }

  /**
   * upheld changes nothing but the request; reversed undoes the subject (REVIEW_SUBJECT_TABLE says what). The
   * worker is told (worker.review_decided) and the audit log records it, in the same transaction.
   */
  async decide(
    who: AuditActor,
    id: string,
    dto: WorkerReviewDecisionRequest,
  ): Promise<AdminWorkerReviewResponse> {
    return inTransaction(this.ds, async (em) => {
      const [row] = await sqlRows<ReviewRequestRow>(
        em,
        `SELECT * FROM worker_review_requests WHERE id = $1 FOR UPDATE`,
        [id],
      );
      if (!row) throw new ApiError('not_found', 'No such review request.');
      if (row.status !== 'open') {
        throw new ApiError('invalid_state', 'This review request is already answered.', {
          current_status: row.status,
        });
      }
      const now = this.clock.now();
      if (dto.outcome === 'reversed') await this.reverse(em, row, dto.note, now);
      const [after] = await sqlRows<ReviewRequestRow>(
        em,
        `UPDATE worker_review_requests SET status = 'decided', outcome = $2, admin_id = $3, note = $4, decided_at = $5
          WHERE id = $1 RETURNING *`,
        [id, dto.outcome, who.adminId, dto.note, now],
      );
      await writeEvent(em, {
        name: 'worker.review_decided',
        workerId: row.worker_id,
        data: {
          review_request_id: id,
          subject: row.subject,
          subject_id: row.subject_id,
          outcome: dto.outcome,
          note: dto.note,
        },
        at: now,
      });
      await recordOperatorAction(
        em,
        who,
        {
          action: 'worker_review.decided',
          target: { type: 'worker_review', id },
          before: { status: 'open', subject: row.subject, subject_id: row.subject_id },
          after: { status: 'decided', outcome: dto.outcome, note: dto.note },
        },
        now,
      );
      return this.adminView(em, after);
    });
  }

  private async reverse(em: EntityManager, row: ReviewRequestRow, note: string, now: Date): Promise<void> {
    if (row.subject === 'fraud_hold') {
      const [fraud] = await sqlRows<{ suspension_id: string | null }>(
        em,
        `UPDATE proof_reviews SET reversed_at = $2 WHERE assignment_id = $1 AND reversed_at IS NULL
         RETURNING suspension_id`,
        [row.subject_id, now],
      );
      if (fraud?.suspension_id) await lift(em, fraud.suspension_id, note, now);
      // The penalty is counted from proof_reviews: recomputing without it restores the reputation.
      await this.reputation.recompute(em, row.worker_id, now);
    } else {
      await lift(em, row.subject_id, note, now);
    }
  }

  private async adminView(db: SqlRunner, r: ReviewRequestRow): Promise<AdminWorkerReviewResponse> {
    const [subject] = await sqlRows<{ live: boolean }>(db, REVIEW_SUBJECT_TABLE[r.subject].ownedSql, [
      r.subject_id,
      r.worker_id,
    ]);
    return {
      ...requestView(r),
      worker_id: r.worker_id,
      operator_id: r.admin_id,
      subject_live: !!subject?.live,
    };
  }
}

async function lift(em: EntityManager, suspensionId: string, note: string, now: Date): Promise<void> {
  await sqlExec(
    em,
    `UPDATE worker_suspensions SET lifted_at = $2, lift_note = $3 WHERE id = $1 AND lifted_at IS NULL`,
    [suspensionId, now, note],
  );
}

/** PostgreSQL's unique_violation: here, a second open request for one subject (worker_review_requests_one_open). */
function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; driverError?: { code?: string } };
  return (err?.code ?? err?.driverError?.code) === '23505';
}

function requestView(r: ReviewRequestRow): WorkerReviewResponse {
  return {
    review_id: r.id,
    subject: r.subject,
    subject_id: r.subject_id,
    statement: r.statement,
    status: r.status,
    outcome: r.outcome,
    note: r.note,
    created_at: r.created_at.toISOString(),
    decided_at: r.decided_at?.toISOString() ?? null,
  };
}
