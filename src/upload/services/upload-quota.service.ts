import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlExec, sqlRows, type SqlRunner } from '../../database/sql';
import type { UploadSlot, UploadSlots } from '../quota/upload-slots';

export const UPLOAD_SLOTS = Symbol('UPLOAD_SLOTS');

/** A refused upload is retried after a few seconds, when one of the worker's uploads in flight has likely ended. */
const SLOT_RETRY_SECONDS = 5;

/**
 * Per-worker upload quotas (finding P1): at most UPLOAD_MAX_CONCURRENT_PER_WORKER uploads in flight (slots shared
 * through Redis when several instances run) and at most UPLOAD_DAILY_MB_PER_WORKER stored per UTC day (counted from
 * the uploads table, so every instance sees the same total). The daily quota is checked three times: before the
 * body is read (nothing left today), while it streams in (it stops reading as soon as the quota is passed), and
 * finally in the transaction that records the files, under a per-worker lock, which is what makes it exact when
 * two uploads finish together.
 */
@Injectable()
export class UploadQuotaService {
  constructor(
    private readonly ds: DataSource,
    @Inject(UPLOAD_SLOTS) private readonly slots: UploadSlots,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  get dailyBytes(): number {
    return this.config.uploads.dailyBytesPerWorker;
  }

  /** A slot for one upload request, or 429 too_many_concurrent_uploads. */
  async slot(workerId: string): Promise<UploadSlot> {
    const max = this.config.uploads.maxConcurrentPerWorker;
    const slot = await this.slots.acquire(workerId, max, this.clock.now().getTime());
    if (slot) return slot;
    throw new ApiError(
      'too_many_concurrent_uploads',
      `At most ${max} uploads at a time: wait for one to finish.`,
      { max_concurrent_uploads: max, retry_after: SLOT_RETRY_SECONDS },
      { 'Retry-After': String(SLOT_RETRY_SECONDS) },
    );
  }

  /** Bytes the worker has stored since the start of this UTC day. */
  async usedToday(workerId: string, q: SqlRunner = this.ds): Promise<number> {
    const [{ used }] = await sqlRows<{ used: string }>(
      q,
      `SELECT coalesce(sum(size_bytes), 0)::bigint AS used FROM uploads WHERE worker_id = $1 AND created_at >= $2`,
      [workerId, startOfUtcDay(this.clock.now())],
    );
    return Number(used);
  }

  /** 429 upload_quota_exceeded unless `adding` more bytes fit on top of `used`. */
  check(used: number, adding: number): void {
    if (used + adding <= this.dailyBytes) return;
    const now = this.clock.now();
    const retryAfter = Math.max(
      1,
      Math.ceil((startOfUtcDay(now).getTime() + 86_400_000 - now.getTime()) / 1000),
    );
    throw new ApiError(
      'upload_quota_exceeded',
      `Uploads are limited to ${Math.floor(this.dailyBytes / 1024 / 1024)} MB per day; the quota renews at 00:00 UTC.`,
      { daily_quota_bytes: this.dailyBytes, used_today_bytes: used, retry_after: retryAfter },
      { 'Retry-After': String(retryAfter) },
    );
  }

  /**
   * In the transaction that records `adding` bytes of uploads: waits for the worker's other recordings (a
   * transaction-scoped advisory lock) and checks the quota against what is committed, so two uploads finishing
   * together cannot both fit into the same remaining room.
   */
  async reserve(em: SqlRunner, workerId: string, adding: number): Promise<void> {
    await sqlExec(em, `SELECT pg_advisory_xact_lock(hashtextextended('upload-quota:' || $1, 0))`, [workerId]);
    this.check(await this.usedToday(workerId, em), adding);
  }
}

function startOfUtcDay(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}
