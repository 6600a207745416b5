import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { sqlRows, type SqlRunner } from '../../database/sql';
import {
  LIVE_ASSIGNMENT_CAP,
  LOW_REPUTATION_LIVE_ASSIGNMENT_CAP,
  LOW_REPUTATION_THRESHOLD,
} from '../live-assignment-cap';
import { distanceSql, EARTH_BOX_MARGIN } from '../../common/geo';
import { TAKING_WORKERS } from '../nearby-tasks.query';
import {
  MAX_TASK_RADIUS_METERS,
  OfferCandidate,
  OFFER_WINDOW_SECONDS,
  POSITION_FRESH_MINUTES,
  rankCandidates,
  rankTasksForWorker,
  RESPONSE_HISTORY,
  type TaskForWorker,
} from '../offer-policy';

/** What the matcher needs to know about a task with an open slot. */
export interface OfferTarget {
  /** Null before the task exists (a quote). */
  taskId: string | null;
  /** The task's agent: a sandbox agent's simulated workers are offered (and quoted) only that agent's tasks. */
  agentId: string;
  latitude: number;
  longitude: number;
  maxDistanceMeters: number;
  requiredSkills: string[];
  minReputation: number | null;
}

const DISTANCE = distanceSql('$1::float8', '$2::float8', 'av.latitude', 'av.longitude');

/** Nearest first before scoring; more candidates than this within one task's radius are not worth ranking. */
const CANDIDATE_LIMIT = 200;

/**
 * Offers can reach the worker (`av`, `w`) at `now` (a placeholder): on call with a position at most
 * POSITION_FRESH_MINUTES old, or a simulated worker (on call where its agent put it until the agent takes it off).
 */
function matchable(now: string): string {
  return `av.online
     AND ((av.on_call_until > ${now}::timestamptz
           AND av.position_at >= ${now}::timestamptz - interval '${POSITION_FRESH_MINUTES} minutes')
          OR w.simulated_by_agent_id IS NOT NULL)`;
}

/**
 * Workers on call who could take a slot of the task: on call (`$3` is now) with a position at most
 * POSITION_FRESH_MINUTES old within the task's max_distance_meters (GiST on worker_availability), active, holding
 * every required skill, reputation at least min_reputation, not a simulated worker of another sandbox agent (each
 * agent's simulated workers serve only its own tasks, and stay on call where they were put until their agent takes
 * them off or deletes them; `$11` is the agent), and never involved with this task before (so nobody is offered the
 * same task twice, even after declining it or letting it lapse; `$7` is null for a task not created yet, as in a
 * quote). Shared by the offer ranking and the quote's count, so a quote counts the workers the offers are drawn from (over
 * its own snapped, wider area: task/domain/quote-privacy.ts).
 */
const ELIGIBLE_FROM = `
    FROM worker_availability av
    JOIN workers w ON w.id = av.worker_id
   WHERE ${matchable('$3')}
     AND earth_box(ll_to_earth($1::float8, $2::float8), $4::float8 * ${EARTH_BOX_MARGIN})
         @> ll_to_earth(av.latitude, av.longitude)
     AND ${DISTANCE} <= $4::float8
     AND w.account_status = 'active'
     AND (w.simulated_by_agent_id IS NULL OR w.simulated_by_agent_id = $11::uuid)
     AND w.skills @> $5::text[]
     AND w.reputation >= $6::numeric
     AND NOT EXISTS (SELECT 1 FROM assignments m WHERE m.task_id = $7::uuid AND m.worker_id = w.id)`;

/**
 * Free now: no other offer waiting for their answer, and below their live-assignment cap (the placeholders of the
 * low-reputation threshold and the two caps). Only these are offered a slot at once; the others are eligible but
 * busy.
 */
function freeNow(threshold: string, lowCap: string, cap: string): string {
  return `
     NOT EXISTS (SELECT 1 FROM assignments p WHERE p.worker_id = w.id AND p.status = 'pending')
     AND (SELECT count(*) FROM assignments l WHERE l.worker_id = w.id AND l.status IN ('accepted', 'in_progress'))
         < CASE WHEN w.reputation < ${threshold}::numeric THEN ${lowCap}::int ELSE ${cap}::int END`;
}
const FREE_NOW = freeNow('$8', '$9', '$10');

/**
 * The eligible workers free now, nearest first. `median_answer` is the median time the worker took to answer its
 * last offers (accept or decline; a lapse counts as the full window; offers the agent withdrew do not count). An
 * offer's answer is `offer_ended_at`; rows from before it was kept fall back to `accepted_at`, then `closed_at`.
 */
export const CANDIDATES_SQL = `
  SELECT w.id AS worker_id, w.reputation, ${DISTANCE} AS distance,
         (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY r.s) FROM (
            SELECT LEAST(extract(epoch FROM COALESCE(o.offer_ended_at, o.accepted_at, o.closed_at) - o.offered_at),
                         $12::float8) AS s
              FROM assignments o
             WHERE o.worker_id = w.id AND o.offered_at IS NOT NULL AND o.status <> 'pending'
               AND NOT (o.status = 'cancelled' AND o.accepted_at IS NULL)
             ORDER BY o.offered_at DESC LIMIT $13::int) r) AS median_answer
  ${ELIGIBLE_FROM}
     AND ${FREE_NOW}
   ORDER BY distance, w.id
   LIMIT ${CANDIDATE_LIMIT}`;

const COUNT_SQL = `
  SELECT count(*)::int AS eligible, (count(*) FILTER (WHERE ${FREE_NOW}))::int AS free
  ${ELIGIBLE_FROM}`;

/**
 * Which workers a count includes: people (no simulated worker), or only the target agent's own simulated workers.
 * A quote reports the two apart, people coarsely and the agent's own simulated workers exactly (product-decisions §16).
 */
export type ReachPool = 'people' | 'simulated';
const POOL_FILTER: Record<ReachPool, string> = {
  people: 'AND w.simulated_by_agent_id IS NULL',
  simulated: 'AND w.simulated_by_agent_id IS NOT NULL',
};

/** How many tasks one worker going on call is ranked against (nearest first); the best of them is offered. */
const TASKS_FOR_WORKER_LIMIT = 20;

const WORKER_DISTANCE = distanceSql('av.latitude', 'av.longitude', 't.latitude', 't.longitude');

/**
 * The open tasks one worker could be offered now, nearest first: the same rules as ELIGIBLE_FROM and FREE_NOW seen
 * from the worker's side (`$1` the worker, `$2` now, `$3` to `$5` the live-assignment caps). The worker must be on
 * call with a fresh position (or simulated) and free; a task must take workers (TAKING_WORKERS, so the partial GiST
 * index serves it, nearest first by its distance operator within the largest radius a task may have), run on real
 * time, end more than one offer window from now, and reach the worker within its own radius; never a task the
 * worker had before.
 */
export const TASKS_FOR_WORKER_SQL = `
  SELECT t.id, ${WORKER_DISTANCE} AS distance, t.max_distance_meters
    FROM worker_availability av
    JOIN workers w ON w.id = av.worker_id
   CROSS JOIN LATERAL (
     SELECT t.id, t.latitude, t.longitude, t.max_distance_meters
       FROM tasks t
      WHERE ${TAKING_WORKERS}
        AND earth_box(ll_to_earth(av.latitude, av.longitude), ${MAX_TASK_RADIUS_METERS}::float8 * ${EARTH_BOX_MARGIN})
            @> ll_to_earth(t.latitude, t.longitude)
        AND ${WORKER_DISTANCE} <= t.max_distance_meters
        AND t.test_clock_id IS NULL
        AND t.deadline_at > $2::timestamptz + interval '${OFFER_WINDOW_SECONDS} seconds'
        AND t.required_skills <@ w.skills
        AND COALESCE(t.min_reputation, 0) <= w.reputation
        AND (w.simulated_by_agent_id IS NULL OR t.agent_id = w.simulated_by_agent_id)
        AND NOT EXISTS (SELECT 1 FROM assignments m WHERE m.task_id = t.id AND m.worker_id = w.id)
      ORDER BY ll_to_earth(t.latitude, t.longitude) <-> ll_to_earth(av.latitude, av.longitude)
      LIMIT ${TASKS_FOR_WORKER_LIMIT}) t
   WHERE av.worker_id = $1::uuid AND ${matchable('$2')} AND w.account_status = 'active'
     AND ${freeNow('$3', '$4', '$5')}`;

/** How many workers a task would reach now: eligible online within its radius, and of those, free to be offered. */
export interface ReachCount {
  eligibleOnline: number;
  freeNow: number;
}

/** Ranks online eligible workers for one open slot (score in offer-policy.ts). */
@Injectable()
export class WorkerRanking {
  async candidates(em: EntityManager, target: OfferTarget, now: Date): Promise<OfferCandidate[]> {
    const rows = await sqlRows<Record<string, string | number | null>>(em, CANDIDATES_SQL, [
      ...eligibilityParams(target, now),
      OFFER_WINDOW_SECONDS,
      RESPONSE_HISTORY,
    ]);
    const candidates = rows.map((r) => ({
      workerId: String(r.worker_id),
      distanceMeters: Number(r.distance),
      reputation: Number(r.reputation),
      medianAnswerSeconds: r.median_answer === null ? null : Number(r.median_answer),
    }));
    return rankCandidates(candidates, target.maxDistanceMeters);
  }

  /**
   * The open tasks a worker could be offered now, best first by the offer score (product-decisions §16: a worker
   * going on call is offered the best open task nearby). Empty when the worker is not on call with a fresh
   * position, or not free (an offer waiting, or at the live-assignment cap).
   */
  async tasksFor(db: SqlRunner, workerId: string, now: Date): Promise<TaskForWorker[]> {
    const rows = await sqlRows<{ id: string; distance: number; max_distance_meters: number }>(
      db,
      TASKS_FOR_WORKER_SQL,
      [workerId, now, LOW_REPUTATION_THRESHOLD, LOW_REPUTATION_LIVE_ASSIGNMENT_CAP, LIVE_ASSIGNMENT_CAP],
    );
    return rankTasksForWorker(
      rows.map((r) => ({
        taskId: r.id,
        distanceMeters: Number(r.distance),
        maxDistanceMeters: r.max_distance_meters,
      })),
    );
  }

  async count(db: SqlRunner, target: OfferTarget, now: Date, pool: ReachPool): Promise<ReachCount> {
    const [row] = await sqlRows<{ eligible: number; free: number }>(
      db,
      `${COUNT_SQL} ${POOL_FILTER[pool]}`,
      eligibilityParams(target, now),
    );
    return { eligibleOnline: row.eligible, freeNow: row.free };
  }
}

/** $1-$11 of ELIGIBLE_FROM and FREE_NOW. */
function eligibilityParams(target: OfferTarget, now: Date): unknown[] {
  return [
    target.latitude,
    target.longitude,
    now,
    target.maxDistanceMeters,
    target.requiredSkills,
    target.minReputation ?? 0,
    target.taskId,
    LOW_REPUTATION_THRESHOLD,
    LOW_REPUTATION_LIVE_ASSIGNMENT_CAP,
    LIVE_ASSIGNMENT_CAP,
    target.agentId,
  ];
}
