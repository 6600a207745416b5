import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { sqlExec } from '../../database/sql';
import { agreeingToApprove } from '../domain/agreement';
import { AssignmentRow, TaskRepository, TaskRow } from '../task.repository';
import { TaskEvents } from './task-events';
import { TaskSettlement } from './task-settlement';

/**
 * Agreement review (product-decisions §17; the rule is domain/agreement.ts). Runs in the transaction of a submission,
 * under the task lock, after the submission was recorded: the submissions that agree with the consensus are approved
 * through the same path as the agent's own approval (TaskSettlement.approve: payout and fee from escrow, one journal
 * per slot, the assignment's event, reputation), so the money is exactly that of an accepted result and a repeat
 * cannot pay twice. The first time the consensus is reached, pending offers are withdrawn and the task stops taking
 * workers (agreement_reached_at); its unfilled slots are refunded at the deadline, as for any task.
 *
 * Nothing here rejects: a submission that disagrees stays submitted for the agent (or the 72-hour auto-approval).
 */
@Injectable()
export class TaskAgreement {
  constructor(
    private readonly settlement: TaskSettlement,
    private readonly events: TaskEvents,
  ) {}

  /** Approves what agrees now; returns the task's assignments as they then are (for the reconciliation). */
  async settle(em: EntityManager, task: TaskRow, now: Date): Promise<AssignmentRow[] | undefined> {
    if (!task.review_policy) return undefined;
    const assignments = await TaskRepository.assignments(em, task.id);
    const agreeing = agreeingToApprove(task.review_policy, assignments);
    if (agreeing.length === 0) return assignments;
    const moved = new Map<string, AssignmentRow>();
    for (const a of agreeing) moved.set(a.id, await this.settlement.approve(em, task, a, now, null));
    if (!task.agreement_reached_at) {
      for (const a of assignments.filter((x) => x.status === 'pending')) {
        const withdrawn = await TaskRepository.moveAssignment(em, a.id, ['pending'], 'cancelled', now, {
          closed_at: now,
          offer_ended_at: now,
        });
        if (withdrawn) {
          moved.set(a.id, withdrawn);
          await this.events.assignment(em, 'assignment.cancelled', withdrawn, now);
        }
      }
      await sqlExec(em, `UPDATE tasks SET agreement_reached_at = $2 WHERE id = $1`, [task.id, now]);
      // The caller reconciles the task it locked: it must see the agreement (no open slots shown from now on).
      task.agreement_reached_at = now;
    }
    return assignments.map((a) => moved.get(a.id) ?? a);
  }
}
