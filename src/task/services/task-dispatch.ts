import { Injectable } from '@nestjs/common';
import { SUSPENDED_SQL } from '../../matching/worker-standing';
import type { EntityManager } from 'typeorm';
import { sqlRows } from '../../database/sql';
import { OFFER_WINDOW_SECONDS, OfferCandidate, responsiveness } from '../../matching/offer-policy';
import { WorkerRanking } from '../../matching/services/worker-ranking';
import { liveAssignmentCap } from '../../matching/live-assignment-cap';
import { countSlots, LIVE_TASK_STATUSES } from '../domain/task-status';
import { locationView } from '../task.presenter';
import { AssignmentRow, mapAssignment, TaskRepository, TaskRow } from '../task.repository';
import { TaskEvents } from './task-events';
import { countOffer } from '../../observability/metrics';

/**
 * Push offers (product-decisions §5). Whenever a transition may have opened a slot (task created, an assignment abandoned
 * or declined, an offer lapsed), the caller runs `offerOpenSlots` inside its own transaction, after the change and
 * before `TaskSettlement.reconcileTask`. Offers are made there rather than by a job after commit: the caller already holds
 * the task row lock, so the open-slot count cannot change underneath, a slot is never open without an offer when
 * someone eligible is online, and the offer commits (or not) together with what opened the slot.
 *
 * Each open slot goes to the best-ranked candidate whose worker row can be locked at once (`SKIP LOCKED`: a worker
 * busy in another transaction is passed over rather than waited for, so dispatch never blocks or deadlocks; lock
 * order is task then worker, as in accept). Under that lock the cap, the reputation floor and "no other offer
 * waiting" are checked again, and the unique (task, worker) pair makes "never offered the same task twice" a
 * database rule.
 */
@Injectable()
export class TaskDispatch {
  constructor(
    private readonly ranking: WorkerRanking,
    private readonly events: TaskEvents,
  ) {}

  /**
   * Returns the offers made. The caller holds the task row lock and calls reconcileTask afterwards. A caller that
   * knows the task's assignments passes them (a task created in this transaction has none), saving the read.
   */
  async offerOpenSlots(
    em: EntityManager,
    task: TaskRow,
    now: Date,
    known?: AssignmentRow[],
  ): Promise<AssignmentRow[]> {
    // Agreement reached (product-decisions §17): the answer is known, so nobody new is asked for it.
    if (!LIVE_TASK_STATUSES.includes(task.status) || task.intake_closed_at || task.agreement_reached_at)
      return [];
    // No offer shorter than its window: a task ending sooner takes workers by pull only.
    if (task.deadline_at.getTime() <= now.getTime() + OFFER_WINDOW_SECONDS * 1000) return [];
    const assignments = known ?? (await TaskRepository.assignments(em, task.id));
    let open = countSlots(
      task.max_workers,
      task.closed_slots,
      assignments.map((a) => ({ status: a.status, settlement: a.slot_settlement })),
    ).open;
    if (open <= 0) return [];
    const candidates = await this.ranking.candidates(
      em,
      {
        taskId: task.id,
        agentId: task.agent_id,
        latitude: task.latitude,
        longitude: task.longitude,
        maxDistanceMeters: task.max_distance_meters,
        requiredSkills: task.required_skills,
        minReputation: task.min_reputation,
      },
      now,
    );
    const offers: AssignmentRow[] = [];
    for (const c of candidates) {
      if (open === 0) break;
      const offer = await this.offer(em, task, c, now);
      if (offer) {
        offers.push(offer);
        countOffer('offered');
        open--;
      }
    }
    return offers;
  }

  private async offer(
    em: EntityManager,
    task: TaskRow,
    c: OfferCandidate,
    now: Date,
  ): Promise<AssignmentRow | null> {
    const workers = await sqlRows<{ reputation: string; live: number; pending: number }>(
      em,
      `SELECT w.reputation,
              (SELECT count(*)::int FROM assignments a WHERE a.worker_id = w.id
                  AND a.status IN ('accepted', 'in_progress')) AS live,
              (SELECT count(*)::int FROM assignments a WHERE a.worker_id = w.id AND a.status = 'pending') AS pending
         FROM workers w WHERE w.id = $1 AND w.account_status = 'active' AND NOT ${SUSPENDED_SQL('w.id')}
          FOR NO KEY UPDATE OF w SKIP LOCKED`,
      [c.workerId],
    );
    if (!workers.length) return null;
    const w = workers[0];
    const reputation = Number(w.reputation);
    if (task.min_reputation !== null && reputation < task.min_reputation) return null;
    if (w.pending > 0 || w.live >= liveAssignmentCap(reputation)) return null;
    const expires = new Date(now.getTime() + OFFER_WINDOW_SECONDS * 1000);
    // Why this worker: the ranking's inputs as they were, shown with the offer (GET /v1/worker/offers).
    const rows = await sqlRows(
      em,
      `INSERT INTO assignments (task_id, worker_id, status, offered_at, offer_expires_at, offer_distance_meters,
                                offer_reputation, offer_response, created_at, updated_at)
       VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7, $3, $3)
       ON CONFLICT (task_id, worker_id) DO NOTHING RETURNING *`,
      [
        task.id,
        c.workerId,
        now,
        expires,
        Math.round(c.distanceMeters),
        reputation,
        Math.round(responsiveness(c.medianAnswerSeconds) * 1000) / 1000,
      ],
    );
    if (!rows.length) return null;
    const offer = mapAssignment(rows[0]);
    await this.events.assignment(em, 'assignment.offered', offer, now, {
      offer_expires_at: expires.toISOString(),
      task: {
        task_id: task.id,
        title: task.title,
        description: task.description,
        task_type: task.task_type,
        payment_cents: task.payout_cents,
        deadline_at: task.deadline_at.toISOString(),
        required_skills: task.required_skills,
        location: locationView(task),
        distance_meters: Math.round(c.distanceMeters),
        answer_schema: task.answer_schema,
      },
    });
    return offer;
  }
}
