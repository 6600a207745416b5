import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { sqlRows, type SqlRunner } from '../../database/sql';
import {
  LIVE_ASSIGNMENT_CAP,
  LOW_REPUTATION_LIVE_ASSIGNMENT_CAP,
  LOW_REPUTATION_THRESHOLD,
} from '../live-assignment-cap';
import { distanceSql, EARTH_BOX_MARGIN } from '../../common/geo';
import {
  OfferCandidate,
  ONLINE_LAPSE_MINUTES,
  OFFER_WINDOW_SECONDS,
  rankCandidates,
  RESPONSE_HISTORY,
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
 * Online workers who could take a slot of the task: online (a report in the last 10 minutes) within the task's
 * max_distance_meters (GiST on worker_availability), active, holding every required skill, reputation at least
 * min_reputation, not a simulated worker of another sandbox agent (each agent's simulated workers serve only its
 * own tasks, and stay online until their agent takes them offline or deletes them; `$11` is the agent), and never
 * involved with this task before (so nobody is offered the same task twice; `$7` is null for a task not created yet,
 * as in a quote). Shared by the offer ranking and the quote's count, so a quote counts the workers the offers are
 * drawn from (over its own snapped, wider area: task/domain/quote-privacy.ts).
 */
const ELIGIBLE_FROM = `
    FROM worker_availability av
    JOIN workers w ON w.id = av.worker_id
   WHERE av.online AND (av.last_seen_at > $3::timestamptz OR w.simulated_by_agent_id IS NOT NULL)
     AND earth_box(ll_to_earth($1::float8, $2::float8), $4::float8 * ${EARTH_BOX_MARGIN})
         @> ll_to_earth(av.latitude, av.longitude)
     AND ${DISTANCE} <= $4::float8
     AND w.account_status = 'active'
     AND (w.simulated_by_agent_id IS NULL OR w.simulated_by_agent_id = $11::uuid)
     AND w.skills @> $5::text[]
     AND w.reputation >= $6::numeric
     AND NOT EXISTS (SELECT 1 FROM assignments m WHERE m.task_id = $7::uuid AND m.worker_id = w.id)`;

/**
 * Free now: no other offer waiting for their answer, and below their live-assignment cap. Only these are offered a
 * slot at once; the others are eligible but busy.
 */
const FREE_NOW = `
     NOT EXISTS (SELECT 1 FROM assignments p WHERE p.worker_id = w.id AND p.status = 'pending')
     AND (SELECT count(*) FROM assignments l WHERE l.worker_id = w.id AND l.status IN ('accepted', 'in_progress'))
         < CASE WHEN w.reputation < $8::numeric THEN $9::int ELSE $10::int END`;

/**
 * The eligible workers free now, nearest first. `median_answer` is the median time the worker took to answer its
 * last offers (accept or decline; a lapse counts as the full window; offers the agent withdrew do not count).
 */
export const CANDIDATES_SQL = `
  SELECT w.id AS worker_id, w.reputation, ${DISTANCE} AS distance,
         (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY r.s) FROM (
            SELECT LEAST(extract(epoch FROM COALESCE(o.accepted_at, o.closed_at) - o.offered_at), $12::float8) AS s
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
    new Date(now.getTime() - ONLINE_LAPSE_MINUTES * 60_000),
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
