import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { distanceSql } from '../../common/geo';
import { sqlRows } from '../../database/sql';
import { offerDeliveriesOf } from '../../events/offer-deliveries';
import { NEARBY_TASK_COLUMNS, type NearbyTaskRow } from '../../matching/nearby-tasks.query';
import type { WorkerOffersResponse } from '../dtos/worker-offer.dto';
import { agentRecords } from '../../matching/agent-record';
import { availableTaskItem } from '../task.presenter';

type OfferRow = Omit<NearbyTaskRow, 'total' | 'total_is_estimate'> & {
  assignment_id: string;
  offered_at: Date;
  offer_expires_at: Date;
  offer_distance_meters: number | null;
  offer_reputation: string | null;
  offer_response: string | null;
  min_reputation: string | null;
};

/**
 * The worker's offers still open (pending, before their expiry; the sweep that lapses them may not have run yet),
 * the soonest to expire first, with the task as the available list shows it (distance from the worker's last
 * reported position), how each was sent and why it went to them. Served by the worker's own assignments index.
 */
const OFFERS_SQL = `
  SELECT a.id AS assignment_id, a.offered_at, a.offer_expires_at, a.offer_distance_meters, a.offer_reputation,
         a.offer_response, t.min_reputation, ${NEARBY_TASK_COLUMNS.map((c) => `t.${c}`).join(', ')},
         CASE WHEN av.latitude IS NULL THEN NULL
              ELSE ${distanceSql('av.latitude', 'av.longitude', 't.latitude', 't.longitude')} END AS distance,
         s.rating_count AS agent_rating_count, s.rating_sum AS agent_rating_sum
    FROM assignments a
    JOIN tasks t ON t.id = a.task_id
    LEFT JOIN worker_availability av ON av.worker_id = a.worker_id
    LEFT JOIN agent_rating_stats s ON s.agent_id = t.agent_id
   WHERE a.worker_id = $1 AND a.status = 'pending' AND a.offer_expires_at > $2
   ORDER BY a.offer_expires_at, a.id`;

/** GET /v1/worker/offers: what the app shows on load, with each offer's real remaining time. */
@Injectable()
export class WorkerOffersService {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  async list(actor: WorkerActor): Promise<WorkerOffersResponse> {
    const rows = await sqlRows<OfferRow>(this.ds, OFFERS_SQL, [actor.id, this.clock.now()]);
    const records = await agentRecords(
      this.ds,
      rows.map((r) => r.agent_id),
      this.clock.now(),
    );
    const deliveries = await offerDeliveriesOf(
      this.ds,
      rows.map((r) => r.assignment_id),
    );
    return {
      offers: rows.map((r) => ({
        assignment_id: r.assignment_id,
        task: availableTaskItem(r, records),
        offered_at: r.offered_at.toISOString(),
        expires_at: r.offer_expires_at.toISOString(),
        deliveries: deliveries.get(r.assignment_id) ?? [],
        why: {
          distance_meters: r.offer_distance_meters,
          reputation: numberOrNull(r.offer_reputation),
          response: numberOrNull(r.offer_response),
          // The task's conditions as the matcher applied them (ELIGIBLE_FROM in worker-ranking.ts): they do not
          // change after creation, so reading them now says what chose this worker then.
          max_distance_meters: r.max_distance_meters,
          skills_matched: r.required_skills,
          min_reputation: numberOrNull(r.min_reputation),
        },
      })),
    };
  }
}

function numberOrNull(v: string | null): number | null {
  return v === null ? null : Number(v);
}
