import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { UrlSafety } from '../../events/url-safety/url-safety';
import type {
  PushSubscriptionResponse,
  RegisterPushSubscriptionRequest,
} from '../dtos/push-subscription.dto';
import type { PushSubscriptionRow } from '../notifications.rows';
import { checkPushKeys } from '../push-keys';

/** Devices one worker may have subscribed at once; a new one beyond replaces the longest unchanged. */
export const MAX_PUSH_SUBSCRIPTIONS_PER_WORKER = 10;

/**
 * A worker's Web Push subscriptions (product-decisions §16). The endpoint is where offers are POSTed, so it is held to
 * the rules of webhook URLs (UrlSafety: https and public addresses in live mode), checked here and again at every
 * send. Registering an endpoint that exists updates it, and moves it to this worker: the same browser signed in by
 * someone else must stop receiving the previous worker's offers.
 */
@Injectable()
export class PushSubscriptionsService {
  constructor(
    private readonly ds: DataSource,
    private readonly safety: UrlSafety,
    private readonly clock: Clock,
  ) {}

  async register(
    actor: WorkerActor,
    dto: RegisterPushSubscriptionRequest,
  ): Promise<PushSubscriptionResponse> {
    const endpoint = await this.safety.assertRegistrable(dto.endpoint, 'endpoint');
    const keys = checkPushKeys(dto.keys);
    const expiresAt = typeof dto.expirationTime === 'number' ? new Date(dto.expirationTime) : null;
    const now = this.clock.now();
    const row = await inTransaction(this.ds, async (em) => {
      const [saved] = await sqlRows<PushSubscriptionRow>(
        em,
        `INSERT INTO push_subscriptions (worker_id, endpoint, p256dh, auth, locale, expires_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
         ON CONFLICT (endpoint) DO UPDATE SET worker_id = EXCLUDED.worker_id, p256dh = EXCLUDED.p256dh,
           auth = EXCLUDED.auth, locale = EXCLUDED.locale, expires_at = EXCLUDED.expires_at, updated_at = EXCLUDED.updated_at
         RETURNING *`,
        [actor.id, endpoint, keys.p256dh, keys.auth, dto.locale ?? 'zh-CN', expiresAt, now],
      );
      await sqlRows(
        em,
        `DELETE FROM push_subscriptions WHERE id IN (
           SELECT id FROM push_subscriptions WHERE worker_id = $1
            ORDER BY updated_at DESC, id DESC OFFSET $2)`,
        [actor.id, MAX_PUSH_SUBSCRIPTIONS_PER_WORKER],
      );
      return saved;
    });
    return view(row);
  }

  async remove(actor: WorkerActor, endpoint: string): Promise<void> {
    const gone = await sqlRows(
      this.ds,
      `DELETE FROM push_subscriptions WHERE worker_id = $1 AND endpoint = $2 RETURNING id`,
      [actor.id, endpoint],
    );
    if (gone.length === 0)
      throw new ApiError('not_found', 'No push subscription of yours has this endpoint.');
  }

  /** The subscriptions an offer is pushed to; an expired one is left out (its browser no longer listens). */
  forWorker(workerId: string, now: Date): Promise<PushSubscriptionRow[]> {
    return sqlRows<PushSubscriptionRow>(
      this.ds,
      `SELECT * FROM push_subscriptions WHERE worker_id = $1 AND (expires_at IS NULL OR expires_at > $2)
        ORDER BY updated_at DESC`,
      [workerId, now],
    );
  }

  /** A push service said the subscription is gone (404 or 410): it never comes back. */
  async forget(id: string): Promise<void> {
    await sqlRows(this.ds, `DELETE FROM push_subscriptions WHERE id = $1`, [id]);
  }

  async count(workerId: string): Promise<number> {
    const [row] = await sqlRows<{ n: number }>(
      this.ds,
      `SELECT count(*)::int AS n FROM push_subscriptions WHERE worker_id = $1`,
      [workerId],
    );
    return row.n;
  }
}

function view(r: PushSubscriptionRow): PushSubscriptionResponse {
  return {
    id: r.id,
    endpoint: r.endpoint,
    locale: r.locale,
    expires_at: r.expires_at ? r.expires_at.toISOString() : null,
    created_at: r.created_at.toISOString(),
  };
}
