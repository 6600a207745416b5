import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { type AuditActor, recordOperatorAction } from '../../audit/operator-audit';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { shareSplit } from '../../escrow/fees';
import { Ledger } from '../../escrow/services/ledger';
import type { DisputeOutcome, DisputeStatus } from '../../events/event-data';
import { writeEvent } from '../../events/outbox';
import { unableSplit } from '../../task/services/task-settlement';
import { mapAssignment, mapTask, type AssignmentRow, type TaskRow } from '../../task/task.repository';
import { TestClocks } from '../../task/test-clocks';
import type { AdminDisputeListResponse, DisputeDecisionRequest, DisputeView } from '../dtos/disputes.dto';
import {
  disputeEventData,
  disputeView,
  DisputesRepository,
  type DisputeRow,
  statusOf,
} from '../disputes.repository';

/**
 * The operators' side of disputes (product-decisions §19): the queue, and the one decision per dispute, taken once
 * the agent answered or its 48 hours passed. The decision runs under a lock on the dispute row, so of concurrent
 * decisions one settles and the rest find it decided (409 invalid_state); its journal's reference is the dispute's,
 * so even a second settlement could not post. Money moves from the agent's balance, never through escrow (the slot
 * was refunded at the rejection), with any shortfall owed (Ledger.settleDispute); the task's status never changes.
 */
@Injectable()
export class DisputeDecisions {
  constructor(
    private readonly ds: DataSource,
    private readonly ledger: Ledger,
    private readonly clock: Clock,
  ) {}

  async list(status: DisputeStatus | undefined): Promise<AdminDisputeListResponse> {
    const rows = await DisputesRepository.queue(this.ds, status ?? null, this.clock.now());
    return {
      disputes: rows.map((r) => ({
        ...disputeView(r),
        agent_id: r.agent_id,
        worker_id: r.worker_id,
        task_title: r.task_title,
        budget_cents: Number(r.budget_cents),
        payout_cents: Number(r.payout_cents),
        rejection_reason_code: r.rejection_reason_code,
        rejection_feedback: r.rejection_feedback,
      })),
    };
  }

  /**
   * Exactly once by the lock on the dispute and its decided_at (a second decision is 409 invalid_state), in one
   * inTransaction: operator requests hold no Idempotency-Key claim (docs/architecture.md, "Money routes").
   */
  async decide(who: AuditActor, disputeId: string, dto: DisputeDecisionRequest): Promise<DisputeView> {
    if (dto.outcome !== 'split' && dto.worker_percent !== undefined) {
      throw ApiError.field('worker_percent', 'is for a split only');
    }
    return inTransaction(this.ds, async (em) => {
      const d = await this.lockDecidable(em, disputeId);
      const [task, a] = await this.slotOf(em, d);
      const money = amounts(dto.outcome, dto.worker_percent ?? null, task, a);
      let owed = 0;
      if (money.workerCents + money.feeCents > 0) {
        const settled = await this.ledger.settleDispute(em, {
          disputeId: d.id,
          agentId: d.agent_id,
          workerId: d.worker_id,
          taskId: d.task_id,
          payoutCents: money.workerCents,
          feeCents: money.feeCents,
        });
        owed = settled.owedCents;
      }
      await sqlRows(
        em,
        `UPDATE disputes SET outcome = $2, worker_percent = $3, decision_note = $4, decided_by = $5, decided_at = $6,
                worker_cents = $7, fee_cents = $8, owed_cents = $9
          WHERE id = $1`,
        [
          d.id,
          dto.outcome,
          dto.outcome === 'split' ? dto.worker_percent : null,
          dto.note ?? null,
          who.adminId,
          d.task_now,
          money.workerCents,
          money.feeCents,
          owed,
        ],
      );
      const decided = (await DisputesRepository.find(em, d.id, d.task_now))!;
      await recordOperatorAction(
        em,
        who,
        {
          action: 'dispute.decided',
          target: { type: 'dispute', id: d.id },
          before: { status: statusOf(d) },
          after: {
            status: 'decided',
            outcome: dto.outcome,
            worker_percent: decided.worker_percent,
            worker_cents: money.workerCents,
            fee_cents: money.feeCents,
            owed_cents: owed,
            task_id: d.task_id,
            agent_id: d.agent_id,
            worker_id: d.worker_id,
          },
        },
        this.clock.now(),
      );
      // To the agent (webhooks, socket) and the worker's socket, where the app hears of its money.
      await writeEvent(em, {
        name: 'dispute.decided',
        agentId: d.agent_id,
        workerId: d.worker_id,
        taskId: d.task_id,
        data: disputeEventData(decided),
        at: d.task_now,
      });
      return disputeView(decided);
    });
  }

  /** The dispute, locked, once it may be decided: answered, or the agent's 48 hours over. */
  private async lockDecidable(em: EntityManager, disputeId: string): Promise<DisputeRow> {
    const [task] = await sqlRows<{ task_id: string }>(em, `SELECT task_id FROM disputes WHERE id = $1`, [
      disputeId,
    ]);
    if (!task) throw new ApiError('dispute_not_found', 'No dispute with this id.');
    const now = (await TestClocks.timeOfTask(em, task.task_id)) ?? this.clock.now();
    const d = (await DisputesRepository.find(em, disputeId, now, true))!;
    const status = statusOf(d);
    if (status === 'decided') {
      throw new ApiError('invalid_state', 'The dispute has been decided already; a decision is final.', {
        current_status: status,
      });
    }
    if (status === 'awaiting_response') {
      throw new ApiError(
        'dispute_not_decidable',
        'The agent may still answer; decide once it has, or when its 48 hours are over.',
        { response_due_at: d.response_due_at.toISOString() },
      );
    }
    return d;
  }

  private async slotOf(em: EntityManager, d: DisputeRow): Promise<[TaskRow, AssignmentRow]> {
    const [t] = await sqlRows(em, `SELECT * FROM tasks WHERE id = $1`, [d.task_id]);
    const [a] = await sqlRows(em, `SELECT * FROM assignments WHERE id = $1`, [d.assignment_id]);
    return [mapTask(t), mapAssignment(a)];
  }
}

/**
 * What a decision pays (product-decisions §19). Overturned: exactly what approval would have, the payout and fee
 * of the slot, or for a rejected "could not do it" report the task's unable share. Split: the unable arithmetic
 * with worker_percent (share = round_half_up(budget x percent / 100), its ordinary fee, the worker the rest).
 */
function amounts(
  outcome: DisputeOutcome,
  workerPercent: number | null,
  task: TaskRow,
  a: AssignmentRow,
): { workerCents: number; feeCents: number } {
  if (outcome === 'upheld') return { workerCents: 0, feeCents: 0 };
  if (outcome === 'split') {
    const s = shareSplit(task.budget_cents, workerPercent!, task.fee_bps);
    return { workerCents: s.workerCents, feeCents: s.feeCents };
  }
  if (a.outcome === 'unable') {
    const s = unableSplit(task);
    return { workerCents: s.workerCents, feeCents: s.feeCents };
  }
  return { workerCents: task.payout_cents, feeCents: task.fee_cents };
}
