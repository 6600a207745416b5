import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { recordOperatorAction, type AuditActor } from '../../audit/operator-audit';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { Ledger } from '../../escrow/services/ledger';
import { assertMayWithdraw } from '../../matching/worker-standing';
import type {
  AdminWithdrawalListResponse,
  AdminWithdrawalResponse,
  ListWithdrawalsQuery,
  WithdrawalRequest,
  WithdrawalResponse,
  WorkerWithdrawalPage,
  WorkerWithdrawalsQuery,
} from '../dtos/withdrawal.dto';
import { PaymentProviders } from '../providers/payment-providers';
import { LIMITS, newWithdrawalId } from '../payment-rules';
import { adminWithdrawalView, withdrawalView, workerWithdrawalView } from '../payment-views';
import { findWithdrawal, toWithdrawal, type WithdrawalRow } from '../payment.repository';
import { WithdrawalSettlement } from './withdrawal-settlement';

const ALIPAY_USER_ID = /^2088\d{12}$/;

/**
 * Worker withdrawals to an Alipay account. The amount leaves the available balance at once (startWithdrawal, in the
 * transaction that records the request; 402 when the balance is short). Amounts from 50000 cents, and withdrawals of
 * a worker with no completed withdrawal yet, wait for an operator (`pending_review`); the rest are transferred at
 * once. An operator approves (the transfer follows) or rejects (the funds return).
 */
@Injectable()
export class WithdrawalService {
  constructor(
    private readonly ds: DataSource,
    private readonly ledger: Ledger,
    private readonly settlement: WithdrawalSettlement,
    private readonly providers: PaymentProviders,
    private readonly clock: Clock,
  ) {}

  async request(workerId: string, dto: WithdrawalRequest): Promise<WithdrawalResponse> {
    if (!this.providers.find('alipay')) {
      throw new ApiError('payment_method_unavailable', 'Withdrawals to Alipay are not available.');
    }
    if (!ALIPAY_USER_ID.test(dto.alipay_account) && !dto.real_name) {
      throw ApiError.field('real_name', 'is required unless alipay_account is an Alipay user id (2088...)');
    }
    const w = await inTransaction(this.ds, async (em) => {
      // Under the worker's row lock, which a pause takes too: no withdrawal is recorded after a pause commits.
      await sqlRows(em, `SELECT 1 FROM workers WHERE id = $1 FOR NO KEY UPDATE`, [workerId]);
      await assertMayWithdraw(em, workerId);
      return this.record(em, workerId, dto);
    });
    if (w.status === 'processing') await this.settlement.transfer(w);
    return withdrawalView((await findWithdrawal(this.ds, w.id))!);
  }

  /** The withdrawal row and the debit of the available balance (402 when short), in the request's transaction. */
  private async record(em: EntityManager, workerId: string, dto: WithdrawalRequest): Promise<WithdrawalRow> {
    const now = this.clock.now();
    // Counting completed withdrawals (not all of them) means concurrent first requests are all reviewed.
    const paidBefore = await sqlRows(
      em,
      `SELECT 1 FROM withdrawals WHERE worker_id = $1 AND status = 'completed' LIMIT 1`,
      [workerId],
    );
    const reviewReason =
      dto.amount_cents >= LIMITS.withdrawalReviewCents
        ? 'large_amount'
        : paidBefore.length === 0
          ? 'first_withdrawal'
          : null;
    const [row] = await sqlRows(
      em,
      `INSERT INTO withdrawals (id, worker_id, amount_cents, provider, payee_account, payee_name, status,
                                review_reason, created_at, updated_at)
       VALUES ($1, $2, $3, 'alipay', $4, $5, $6, $7, $8, $8) RETURNING *`,
      [
        newWithdrawalId(),
        workerId,
        dto.amount_cents,
        dto.alipay_account,
        dto.real_name ?? null,
        reviewReason ? 'pending_review' : 'processing',
        reviewReason,
        now,
      ],
    );
    const created = toWithdrawal(row);
    await this.ledger.startWithdrawal(em, {
      workerId,
      withdrawalId: created.id,
      amountCents: created.amount_cents,
      // The payee stays out of the append-only ledger: it may be a phone number, and deletion erases it.
      description: `Withdrawal ${created.id} to Alipay`,
    });
    return created;
  }

  /** The worker's own withdrawals, newest first; the cursor is the id of the last one of the previous page. */
  async listOwn(workerId: string, q: WorkerWithdrawalsQuery): Promise<WorkerWithdrawalPage> {
    const limit = q.limit ?? 20;
    const params: unknown[] = [workerId, limit + 1];
    let after = '';
    if (q.starting_after) {
      const cursor = await sqlRows<Pick<WithdrawalRow, 'created_at'>>(
        this.ds,
        `SELECT created_at FROM withdrawals WHERE id = $1 AND worker_id = $2`,
        [q.starting_after, workerId],
      );
      if (!cursor[0]) throw ApiError.field('starting_after', 'is not one of your withdrawals');
      params.push(cursor[0].created_at, q.starting_after);
      after = ` AND (created_at, id) < ($3, $4)`;
    }
    const rows = await sqlRows(
      this.ds,
      `SELECT * FROM withdrawals WHERE worker_id = $1${after} ORDER BY created_at DESC, id DESC LIMIT $2`,
      params,
    );
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit).map((r) => workerWithdrawalView(toWithdrawal(r)));
    return {
      data: page,
      has_more: hasMore,
      next_cursor: hasMore ? page[page.length - 1].withdrawal_id : null,
    };
  }

  async list(q: ListWithdrawalsQuery): Promise<AdminWithdrawalListResponse> {
    const skip = q.skip ?? 0;
    const limit = q.limit ?? 20;
    const where = q.status ? `WHERE status = $1` : `WHERE $1::text IS NULL`;
    const [{ total }] = await sqlRows<{ total: string }>(
      this.ds,
      `SELECT count(*)::text AS total FROM withdrawals ${where}`,
      [q.status ?? null],
    );
    const rows = await sqlRows(
      this.ds,
      `SELECT * FROM withdrawals ${where} ORDER BY created_at, id LIMIT $2 OFFSET $3`,
      [q.status ?? null, limit, skip],
    );
    return {
      items: rows.map((r) => adminWithdrawalView(toWithdrawal(r))),
      total: Number(total),
      skip,
      limit,
      has_more: skip + rows.length < Number(total),
    };
  }

  /**
   * The approval and its audit entry commit, then the transfer is sent (WithdrawalSettlement, which posts what the
   * provider says).
   */
  async approve(who: AuditActor, id: string): Promise<AdminWithdrawalResponse> {
    const approved = await inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      const rows = await sqlRows(
        em,
        `UPDATE withdrawals SET status = 'processing', reviewed_by = $2, reviewed_at = $3, updated_at = $3
            WHERE id = $1 AND status = 'pending_review' RETURNING *`,
        [id, who.adminId, now],
      );
      if (rows.length === 0) throw await this.notReviewable(em, id);
      const w = toWithdrawal(rows[0]);
      await this.audit(em, who, 'withdrawal.approved', w, now);
      return w;
    });
    await this.settlement.transfer(approved);
    return adminWithdrawalView((await findWithdrawal(this.ds, id))!);
  }

  async reject(who: AuditActor, id: string, reason: string): Promise<AdminWithdrawalResponse> {
    const w = await inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      const rows = await sqlRows(
        em,
        `UPDATE withdrawals SET status = 'rejected', rejection_reason = $4, reviewed_by = $2, reviewed_at = $3,
                updated_at = $3
          WHERE id = $1 AND status = 'pending_review' RETURNING *`,
        [id, who.adminId, now, reason],
      );
      if (rows.length === 0) throw await this.notReviewable(em, id);
      const rejected = toWithdrawal(rows[0]);
      await this.audit(em, who, 'withdrawal.rejected', rejected, now);
      await this.ledger.failWithdrawal(em, {
        workerId: rejected.worker_id,
        withdrawalId: rejected.id,
        amountCents: rejected.amount_cents,
        description: `Withdrawal ${rejected.id} rejected in review; returned to the balance`,
      });
      return rejected;
    });
    return adminWithdrawalView(w);
  }

  /** A review decision's audit entry: the withdrawal left pending_review for the status it now has. */
  private async audit(
    em: EntityManager,
    who: AuditActor,
    action: 'withdrawal.approved' | 'withdrawal.rejected',
    w: WithdrawalRow,
    at: Date,
  ): Promise<void> {
    await recordOperatorAction(
      em,
      who,
      {
        action,
        target: { type: 'withdrawal', id: w.id },
        before: { status: 'pending_review' },
        after: {
          status: w.status,
          worker_id: w.worker_id,
          amount_cents: w.amount_cents,
          review_reason: w.review_reason,
          ...(w.rejection_reason === null ? {} : { rejection_reason: w.rejection_reason }),
        },
      },
      at,
    );
  }

  /** Read on the transaction's connection (a second one from the pool could wait for the pool to free one). */
  private async notReviewable(em: EntityManager, id: string): Promise<ApiError> {
    const w: WithdrawalRow | null = await findWithdrawal(em, id);
    if (!w) return new ApiError('not_found', 'No withdrawal with this id.');
    return new ApiError('invalid_state', `The withdrawal is ${w.status}, not pending_review.`, {
      current_status: w.status,
    });
  }
}
