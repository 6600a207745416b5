import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AgentRepository } from '../../agent/agent.repository';
import { type AuditActor, recordOperatorAction } from '../../audit/operator-audit';
import { AuthCache } from '../../auth/auth-cache';
import { revokeSessions } from '../../auth/tokens';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { countOffer } from '../../observability/metrics';
import { WorkerPseudonyms } from '../domain/worker-pseudonym';
import { LIVE_TASK_STATUSES } from '../domain/task-status';
import type {
  AdminTaskReportListResponse,
  AdminTaskReportView,
  TaskReportDecisionRequest,
  TaskReportDecisionResponse,
  TaskReportStatus,
} from '../dtos/task-reports.dto';
import { TaskRepository, type TaskRow } from '../task.repository';
import { TaskEvents } from './task-events';
import { TaskSettlement } from './task-settlement';

interface ReportRow {
  id: string;
  task_id: string;
  worker_id: string;
  reason: AdminTaskReportView['reason'];
  note: string;
  created_at: Date;
  outcome: AdminTaskReportView['outcome'];
  suspend_agent: boolean | null;
  decision_note: string | null;
  decided_at: Date | null;
  task_title: string;
  task_status: string;
  agent_id: string;
  agent_status: string;
  reports_on_task: number;
}

/** A report as operators read it: with its task, the agent's standing and how many reports the task has. */
const REPORTS = `SELECT r.id, r.task_id, r.worker_id, r.reason, r.note, r.created_at, r.outcome, r.suspend_agent,
         r.decision_note, r.decided_at, t.title AS task_title, t.status AS task_status, r.agent_id,
         ag.account_status AS agent_status,
         (SELECT count(*)::int FROM task_reports o WHERE o.task_id = r.task_id) AS reports_on_task
    FROM task_reports r JOIN tasks t ON t.id = r.task_id JOIN agents ag ON ag.id = r.agent_id`;

/**
 * The operators' side of workers' reports of tasks (product-decisions §19, "Also"): the queue, and one decision per
 * task that closes every open report of it. The decision locks the task row first (the lock every change of the task
 * and its money takes), then the report: of concurrent decisions one settles and the rest find it decided (409
 * invalid_state). cancel_task gives the agent back everything still held for the task (docs/decisions.md):
 * open slots, withdrawn offers, and work taken, under way or submitted (each through its one settlement reference,
 * so nothing can be refunded twice); approved or rejected slots stay as they were.
 */
@Injectable()
export class TaskReportDecisions {
  constructor(
    private readonly ds: DataSource,
    private readonly settlement: TaskSettlement,
    private readonly events: TaskEvents,
    private readonly pseudonyms: WorkerPseudonyms,
    private readonly authCache: AuthCache,
    private readonly clock: Clock,
  ) {}

  async list(status: TaskReportStatus | undefined): Promise<AdminTaskReportListResponse> {
    const decided = status === 'decided';
    const rows = await sqlRows<ReportRow>(
      this.ds,
      `${REPORTS} WHERE (r.decided_at IS NOT NULL) = $1
        ORDER BY ${decided ? 'r.decided_at DESC, r.id DESC' : 'r.created_at, r.id'} LIMIT 200`,
      [decided],
    );
    return { reports: rows.map((r) => this.view(r)) };
  }

  /** One report, open or decided, however old (the lists show the newest 200 of each). */
  async get(reportId: string): Promise<AdminTaskReportView> {
    const [row] = await sqlRows<ReportRow>(this.ds, `${REPORTS} WHERE r.id = $1`, [reportId]);
    if (!row) throw new ApiError('not_found', 'No report with this id.');
    return this.view(row);
  }

  /**
   * Once, by the task's lock and the report's decided_at (a second decision is 409 invalid_state), in one
   * inTransaction: operator requests hold no Idempotency-Key claim (docs/architecture.md, "Money routes").
   */
  async decide(
    who: AuditActor,
    reportId: string,
    dto: TaskReportDecisionRequest,
  ): Promise<TaskReportDecisionResponse> {
    let suspended = false;
    try {
      return await inTransaction(this.ds, async (em) => {
        const [found] = await sqlRows<{ task_id: string }>(
          em,
          `SELECT task_id FROM task_reports WHERE id = $1`,
          [reportId],
        );
        if (!found) throw new ApiError('not_found', 'No report with this id.');
        const task = (await TaskRepository.lock(em, found.task_id))!;
        const [report] = await sqlRows<{ decided_at: Date | null }>(
          em,
          `SELECT decided_at FROM task_reports WHERE id = $1 FOR UPDATE`,
          [reportId],
        );
        if (report.decided_at) {
          throw new ApiError('invalid_state', 'The report has been decided already; a decision is final.', {
            current_status: 'decided',
          });
        }
        const now = this.clock.now();
        if (dto.outcome === 'cancel_task' && !LIVE_TASK_STATUSES.includes(task.status)) {
          throw new ApiError(
            'invalid_state',
            `The task is ${task.status} already and cannot be cancelled; dismiss the report (and suspend the agent if need be).`,
            { current_status: task.status },
          );
        }
        // The agent row before any money moves, so this decision takes its locks in the order a suspension does.
        const agentBefore = dto.suspend_agent ? await AgentRepository.lockControls(em, task.agent_id) : null;
        const cancelled = dto.outcome === 'cancel_task' ? await this.cancel(em, task, now) : null;
        if (agentBefore && agentBefore.account_status === 'active') {
          suspended = await this.suspend(em, who, task.agent_id, agentBefore, now);
        }
        const decided = await sqlRows<{ id: string }>(
          em,
          `UPDATE task_reports SET outcome = $2, suspend_agent = $3, decision_note = $4, decided_by = $5,
                  decided_at = $6
            WHERE task_id = $1 AND decided_at IS NULL RETURNING id`,
          [task.id, dto.outcome, dto.suspend_agent ?? false, dto.note, who.adminId, now],
        );
        const ids = decided.map((r) => r.id).sort();
        await recordOperatorAction(
          em,
          who,
          {
            action: 'task_report.decided',
            target: { type: 'task_report', id: reportId },
            before: { status: 'open', task_status: task.status },
            after: {
              status: 'decided',
              outcome: dto.outcome,
              suspend_agent: dto.suspend_agent ?? false,
              task_id: task.id,
              agent_id: task.agent_id,
              task_status: cancelled?.status ?? task.status,
              refund_cents: cancelled?.refundCents ?? 0,
              decided_report_ids: ids,
            },
          },
          now,
        );
        const response: TaskReportDecisionResponse = {
          report_id: reportId,
          outcome: dto.outcome,
          decided_report_ids: ids,
          task_status: cancelled?.status ?? task.status,
          refund_cents: cancelled?.refundCents ?? 0,
          agent_suspended:
            dto.suspend_agent === true && (suspended || agentBefore?.account_status !== 'active'),
        };
        return response;
      });
    } finally {
      // The agent's status is part of what a cached credential answers (AuthCache), as in AdminAgentsService.
      if (suspended) this.authCache.invalidate();
    }
  }

  /**
   * Ends the task with everything still held back to the agent: pending offers are withdrawn, work taken, under way
   * or submitted is refunded whole (its worker is paid nothing; TaskSettlement.refundCancelled), and the open slots
   * close (refunded by reconcileTask). The agent hears task.cancelled, each worker assignment.cancelled.
   */
  private async cancel(em: EntityManager, task: TaskRow, now: Date) {
    let refundCents = 0;
    for (const a of await TaskRepository.assignments(em, task.id)) {
      if (a.status === 'accepted' || a.status === 'in_progress' || a.status === 'submitted') {
        await this.settlement.refundCancelled(em, task, a, now);
        refundCents += task.budget_cents;
      } else if (a.status === 'pending') {
        const moved = await TaskRepository.moveAssignment(em, a.id, ['pending'], 'cancelled', now, {
          closed_at: now,
          offer_ended_at: now,
        });
        if (moved) {
          countOffer('withdrawn');
          await this.events.assignment(em, 'assignment.cancelled', moved, now);
        }
      }
    }
    const outcome = await this.settlement.reconcileTask(em, task, now, { cancel: true });
    refundCents += outcome.refundedOpenSlots * task.budget_cents;
    return { status: outcome.status, refundCents };
  }

  /** The agent suspended as PATCH /v1/admin/agents/{id} does it: its sessions revoked, the change audited. */
  private async suspend(
    em: EntityManager,
    who: AuditActor,
    agentId: string,
    before: NonNullable<Awaited<ReturnType<typeof AgentRepository.lockControls>>>,
    now: Date,
  ): Promise<boolean> {
    await AgentRepository.control(em, agentId, { account_status: 'suspended' }, now);
    await revokeSessions(em, 'agent', agentId, now);
    await recordOperatorAction(
      em,
      who,
      {
        action: 'agent.updated',
        target: { type: 'agent', id: agentId },
        before,
        after: { ...before, account_status: 'suspended' },
      },
      now,
    );
    return true;
  }

  private view(r: ReportRow): AdminTaskReportView {
    return {
      report_id: r.id,
      status: r.decided_at ? 'decided' : 'open',
      reason: r.reason,
      note: r.note,
      reporter: this.pseudonyms.of(r.task_id, r.worker_id),
      created_at: r.created_at.toISOString(),
      task_id: r.task_id,
      task_title: r.task_title,
      task_status: r.task_status,
      agent_id: r.agent_id,
      agent_status: r.agent_status,
      reports_on_task: r.reports_on_task,
      outcome: r.outcome,
      suspend_agent: r.suspend_agent,
      decision_note: r.decision_note,
      decided_at: r.decided_at?.toISOString() ?? null,
    };
  }
}
