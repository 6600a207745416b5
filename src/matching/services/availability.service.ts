import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { writeEvent } from '../../events/outbox';
import type { AvailabilityResponse, UpdateAvailabilityRequest } from '../dtos/availability.dto';
import type { WorkerAvailabilityRow } from '../matching.rows';
import { POSITION_FRESH_MINUTES } from '../offer-policy';
import { requireLocationConsent } from './location-consent';
import { PositionTrail } from './position-trail';
import { assertMayWork } from '../worker-standing';

type AvailabilityRow = Omit<WorkerAvailabilityRow, 'worker_id'>;

const COLUMNS = 'online, on_call_until, latitude, longitude, position_at, last_seen_at';

/**
 * Worker presence for push offers (product-decisions §16). `online: true` puts the worker on call until it sends
 * `online: false` or for ON_CALL_HOURS after that report; matching also needs the position to be at most
 * POSITION_FRESH_MINUTES old. Nothing has to run when time passes: every reader compares the stored times with the
 * clock. The last position is kept when going off call: it also serves available-tasks without coordinates.
 *
 * A report that makes the worker reachable for offers (on call with a fresh position, which it was not) writes
 * `worker.on_call`, and turning off writes `worker.off_call`, in the report's transaction: every open app of the
 * worker hears it, and the job runner offers a worker going on call the best open task nearby (OnCallOffers).
 *
 * Every reported position is also added to the position trail (PositionTrail, kept 30 days) in the same transaction.
 * Going on call and reporting a position need the worker's current consent to precise location (product-decisions
 * §19, location-consent.ts); going off call without a position never does.
 */
@Injectable()
export class AvailabilityService {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async get(actor: WorkerActor): Promise<AvailabilityResponse> {
    const [row] = await sqlRows<AvailabilityRow>(
      this.ds,
      `SELECT ${COLUMNS} FROM worker_availability WHERE worker_id = $1`,
      [actor.id],
    );
    return view(row ?? null, this.clock.now());
  }

  async update(actor: WorkerActor, dto: UpdateAvailabilityRequest): Promise<AvailabilityResponse> {
    // null is absent, as for every optional field (product-decisions §16).
    const latitude = dto.latitude ?? null;
    const longitude = dto.longitude ?? null;
    const hasLat = latitude !== null;
    if (hasLat !== (longitude !== null)) {
      throw ApiError.field(
        hasLat ? 'longitude' : 'latitude',
        'latitude and longitude must be given together',
      );
    }
    if (dto.online && !hasLat) {
      throw ApiError.field('latitude', 'a position is required to go online');
    }
    // A suspended worker may report a position and go off call, never on (product-decisions §18).
    if (dto.online) await assertMayWork(this.ds, actor.id);
    const now = this.clock.now();
    const onCallUntil = dto.online ? new Date(now.getTime() + this.config.onCallHours * 3_600_000) : null;
    const row = await inTransaction(this.ds, async (em) => {
      if (dto.online || hasLat) await requireLocationConsent(em, actor.id);
      const [before] = await sqlRows<AvailabilityRow>(
        em,
        `SELECT ${COLUMNS} FROM worker_availability WHERE worker_id = $1 FOR UPDATE`,
        [actor.id],
      );
      const [after] = await sqlRows<AvailabilityRow>(
        em,
        `INSERT INTO worker_availability (worker_id, online, on_call_until, latitude, longitude, position_at,
                                          last_seen_at)
         VALUES ($1, $2, $3, $4, $5, CASE WHEN $4::float8 IS NULL THEN NULL ELSE $6::timestamptz END, $6)
         ON CONFLICT (worker_id) DO UPDATE SET
           online = EXCLUDED.online,
           on_call_until = EXCLUDED.on_call_until,
           latitude = COALESCE(EXCLUDED.latitude, worker_availability.latitude),
           longitude = COALESCE(EXCLUDED.longitude, worker_availability.longitude),
           position_at = COALESCE(EXCLUDED.position_at, worker_availability.position_at),
           last_seen_at = EXCLUDED.last_seen_at
         RETURNING ${COLUMNS}`,
        [actor.id, dto.online, onCallUntil, latitude, longitude, now],
      );
      if (latitude !== null && longitude !== null) {
        await PositionTrail.record(em, {
          workerId: actor.id,
          latitude,
          longitude,
          accuracyM: dto.accuracy_m ?? null,
          source: 'availability',
          at: now,
        });
      }
      await this.announce(em, actor.id, before ?? null, after, now);
      return after;
    });
    return view(row, now);
  }

  /**
   * A withdrawn consent to precise location (WorkerConsents.withdraw, in its transaction): off call at once, and the
   * last position is erased, since it was kept under that consent (the trail's positions follow in PositionTrail).
   */
  async endForWithdrawnConsent(em: EntityManager, workerId: string, now: Date): Promise<void> {
    const [before] = await sqlRows<AvailabilityRow>(
      em,
      `SELECT ${COLUMNS} FROM worker_availability WHERE worker_id = $1 FOR UPDATE`,
      [workerId],
    );
    if (!before) return;
    const [after] = await sqlRows<AvailabilityRow>(
      em,
      `UPDATE worker_availability
          SET online = false, on_call_until = NULL, latitude = NULL, longitude = NULL, position_at = NULL
        WHERE worker_id = $1 RETURNING ${COLUMNS}`,
      [workerId],
    );
    await this.announce(em, workerId, before, after, now);
  }

  /** The outbox events of a change of state (none for a report that changes nothing a device shows). */
  private async announce(
    em: EntityManager,
    workerId: string,
    before: AvailabilityRow | null,
    after: AvailabilityRow,
    now: Date,
  ): Promise<void> {
    const was = presence(before, now);
    const is = presence(after, now);
    const name =
      is.matching && !was.matching ? 'worker.on_call' : was.onCall && !is.onCall ? 'worker.off_call' : null;
    if (!name) return;
    await writeEvent(em, {
      name,
      workerId,
      data: { online: is.onCall, on_call_until: is.onCall ? after.on_call_until!.toISOString() : null },
      at: now,
    });
  }
}

interface Presence {
  onCall: boolean;
  positionFresh: boolean;
  /** Offers can reach the worker: on call with a fresh position. */
  matching: boolean;
}

function presence(r: AvailabilityRow | null, now: Date): Presence {
  const onCall = !!r && r.online && r.on_call_until !== null && r.on_call_until.getTime() > now.getTime();
  const positionFresh =
    !!r?.position_at && now.getTime() - r.position_at.getTime() <= POSITION_FRESH_MINUTES * 60_000;
  return { onCall, positionFresh, matching: onCall && positionFresh };
}

function view(r: AvailabilityRow | null, now: Date): AvailabilityResponse {
  const p = presence(r, now);
  const until = p.onCall ? r!.on_call_until!.toISOString() : null;
  return {
    online: p.onCall,
    on_call_until: until,
    online_until: until,
    latitude: r?.latitude ?? null,
    longitude: r?.longitude ?? null,
    position_at: r?.position_at ? r.position_at.toISOString() : null,
    position_age_seconds: r?.position_at
      ? Math.max(0, Math.floor((now.getTime() - r.position_at.getTime()) / 1000))
      : null,
    position_fresh: p.positionFresh,
    matching: p.matching,
    last_seen_at: r ? r.last_seen_at.toISOString() : null,
  };
}
