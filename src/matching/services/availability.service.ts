import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import type { AvailabilityResponse, UpdateAvailabilityRequest } from '../dtos/availability.dto';
import type { WorkerAvailabilityRow } from '../matching.rows';
import { ONLINE_LAPSE_MINUTES } from '../offer-policy';

type AvailabilityRow = Omit<WorkerAvailabilityRow, 'worker_id'>;

/**
 * Worker presence for push offers. A report stores the position and the time; "online" holds for 10 minutes after
 * the last report (nothing has to run to take a silent worker offline: every reader compares last_seen_at with the
 * clock). The last position is kept when going offline: it also serves available-tasks without coordinates.
 */
@Injectable()
export class AvailabilityService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  async update(actor: WorkerActor, dto: UpdateAvailabilityRequest): Promise<AvailabilityResponse> {
    const hasLat = dto.latitude !== undefined;
    if (hasLat !== (dto.longitude !== undefined)) {
      throw ApiError.field(
        hasLat ? 'longitude' : 'latitude',
        'latitude and longitude must be given together',
      );
    }
    if (dto.online && !hasLat) {
      throw ApiError.field('latitude', 'a position is required to go online');
    }
    const now = this.clock.now();
    const [row] = await sqlRows<AvailabilityRow>(
      this.ds,
      `INSERT INTO worker_availability (worker_id, online, latitude, longitude, position_at, last_seen_at)
       VALUES ($1, $2, $3, $4, CASE WHEN $3::float8 IS NULL THEN NULL ELSE $5::timestamptz END, $5)
       ON CONFLICT (worker_id) DO UPDATE SET
         online = EXCLUDED.online,
         latitude = COALESCE(EXCLUDED.latitude, worker_availability.latitude),
         longitude = COALESCE(EXCLUDED.longitude, worker_availability.longitude),
         position_at = COALESCE(EXCLUDED.position_at, worker_availability.position_at),
         last_seen_at = EXCLUDED.last_seen_at
       RETURNING online, latitude, longitude, position_at, last_seen_at`,
      [actor.id, dto.online, dto.latitude ?? null, dto.longitude ?? null, now],
    );
    return view(row, now);
  }
}

function view(r: AvailabilityRow, now: Date): AvailabilityResponse {
  const until = new Date(r.last_seen_at.getTime() + ONLINE_LAPSE_MINUTES * 60_000);
  const online = r.online && until.getTime() > now.getTime();
  return {
    online,
    latitude: r.latitude,
    longitude: r.longitude,
    position_at: r.position_at ? r.position_at.toISOString() : null,
    last_seen_at: r.last_seen_at.toISOString(),
    online_until: online ? until.toISOString() : null,
  };
}
