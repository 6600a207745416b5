import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { preparedRows } from '../../database/sql';
import type { LatLng } from '../../common/geo';
import {
  NearbyQuery,
  nearbyTasksQuery,
  NearbySort,
  NearbyTaskRow,
  type NearbyTasksFilter,
  type NearbyWorker,
} from '../nearby-tasks.query';

export interface NearbySearch {
  position?: LatLng;
  radiusMeters: number;
  minPayoutCents: number;
  sort: NearbySort;
  limit: number;
}

export interface NearbyResult {
  /** The listed columns of each task (NEARBY_TASK_COLUMNS) plus distance, total and the agent's rating. */
  rows: NearbyTaskRow[];
  /** Matches in all; beyond NEARBY_TOTAL_CAP an estimate (totalIsEstimate), see nearby-tasks.query.ts. */
  total: number;
  totalIsEstimate: boolean;
  /** The position searched around: the query's, else the worker's last reported one, else none. */
  position: LatLng | null;
  positionSource: 'query' | 'last_known' | null;
}

/** Tasks a worker can take now, nearest-first or otherwise (the pull side of matching, product-decisions §5). */
@Injectable()
export class NearbyTasks {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  async search(workerId: string, s: NearbySearch): Promise<NearbyResult> {
    const now = this.clock.now();
    // A literal each time, not a spread of a shared object: in Node 20's V8 every `{ ...search, position }` here got
    // a hidden class of its own (--log-maps), garbage for the old generation on every listing.
    const filter = <W extends NearbyWorker | undefined>(
      position: LatLng | null,
      worker: W,
    ): NearbyTasksFilter & { worker: W } => ({
      workerId,
      worker,
      now,
      position,
      radiusMeters: s.radiusMeters,
      minPayoutCents: s.minPayoutCents,
      sort: s.sort,
      limit: s.limit,
    });
    // Around the position the app sends, the per-cell search reads the worker's skills and reputation itself: one
    // statement, where reading the worker first cost every listing a second round trip.
    if (s.position) {
      const direct = nearbyTasksQuery(filter(s.position, undefined));
      if (direct) {
        const tasks = await this.run(direct);
        // Nothing matches a worker whose row is gone either: only an empty page needs telling the two apart.
        if (!tasks.length && !(await this.worker(workerId))) throw accountGone();
        return result(tasks, s.position, 'query');
      }
    }
    const worker = await this.worker(workerId);
    if (!worker) throw accountGone();
    const lastKnown =
      worker.latitude === null || worker.longitude === null
        ? null
        : { latitude: worker.latitude, longitude: worker.longitude };
    const position = s.position ?? lastKnown;
    const query = nearbyTasksQuery(
      filter(position, { skills: worker.skills, reputation: Number(worker.reputation) }),
    );
    const tasks = await this.run(query);
    return result(tasks, position, s.position ? 'query' : lastKnown ? 'last_known' : null);
  }

  /** Prepared: planning the search cost more than running it (preparedRows). */
  private run(query: NearbyQuery): Promise<NearbyTaskRow[]> {
    return preparedRows<NearbyTaskRow>(this.ds, query.sql, query.params);
  }

  /** The worker's skills, reputation and last reported position; null when the account no longer exists. */
  private async worker(workerId: string): Promise<WorkerFacts | null> {
    const rows = await preparedRows<WorkerFacts>(
      this.ds,
      `SELECT w.skills, w.reputation, av.latitude, av.longitude
         FROM workers w LEFT JOIN worker_availability av ON av.worker_id = w.id WHERE w.id = $1`,
      [workerId],
    );
    return rows[0] ?? null;
  }
}

interface WorkerFacts {
  skills: string[];
  reputation: string;
  latitude: number | null;
  longitude: number | null;
}

function accountGone(): ApiError {
  return new ApiError('invalid_token', 'The account of this token no longer exists.');
}

function result(
  tasks: NearbyTaskRow[],
  position: LatLng | null,
  positionSource: NearbyResult['positionSource'],
): NearbyResult {
  return {
    rows: tasks,
    total: tasks.length ? Number(tasks[0].total) : 0,
    totalIsEstimate: tasks.length > 0 && tasks[0].total_is_estimate === true,
    position,
    positionSource,
  };
}
