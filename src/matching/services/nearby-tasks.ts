import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { preparedRows } from '../../database/sql';
import type { LatLng } from '../../common/geo';
import { nearbyTasksQuery, NearbySort, NearbyTaskRow } from '../nearby-tasks.query';

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
    @InjectDataSource() private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  async search(workerId: string, s: NearbySearch): Promise<NearbyResult> {
    const rows = await preparedRows<{
      skills: string[];
      reputation: string;
      latitude: number | null;
      longitude: number | null;
    }>(
      this.ds,
      `SELECT w.skills, w.reputation, av.latitude, av.longitude
         FROM workers w LEFT JOIN worker_availability av ON av.worker_id = w.id WHERE w.id = $1`,
      [workerId],
    );
    if (!rows.length) throw new ApiError('invalid_token', 'The account of this token no longer exists.');
    const worker = rows[0];
    const lastKnown =
      worker.latitude === null || worker.longitude === null
        ? null
        : { latitude: worker.latitude, longitude: worker.longitude };
    const position = s.position ?? lastKnown;
    const { sql, params } = nearbyTasksQuery({
      workerId,
      skills: worker.skills,
      reputation: Number(worker.reputation),
      now: this.clock.now(),
      position,
      radiusMeters: s.radiusMeters,
      minPayoutCents: s.minPayoutCents,
      sort: s.sort,
      limit: s.limit,
    });
    // Prepared: planning this query cost more than running it (preparedRows).
    const tasks = await preparedRows<NearbyTaskRow>(this.ds, sql, params);
    return {
      rows: tasks,
      total: tasks.length ? Number(tasks[0].total) : 0,
      totalIsEstimate: tasks.length > 0 && tasks[0].total_is_estimate === true,
      position,
      positionSource: s.position ? 'query' : lastKnown ? 'last_known' : null,
    };
  }
}
