import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { sqlRows } from '../../database/sql';

/** Positions are kept this long, then erased (product-decisions §19: PIPL, precise location is sensitive). */
export const POSITION_RETENTION_DAYS = 30;

/**
 * One place a position is stored, and how to erase the ones older than the cutoff ($1). Each statement answers one
 * row per erased position (`RETURNING 1`), for the count. A position trail (product-decisions §18) is one more entry:
 * `{ table: 'worker_positions', sql: 'DELETE FROM worker_positions WHERE recorded_at < $1 RETURNING 1' }`.
 */
interface PositionStore {
  table: string;
  sql: string;
}

const STORES: readonly PositionStore[] = [
  {
    // The latest position of each worker. A worker still on call keeps theirs (it is at most ON_CALL_HOURS old when
    // they are matched on it); an old one off call loses it, and a stale on-call row (its on_call_until passed) goes
    // off call with it, which is what every reader already takes it to be.
    table: 'worker_availability',
    sql: `UPDATE worker_availability
             SET latitude = NULL, longitude = NULL, position_at = NULL, online = false, on_call_until = NULL
           WHERE position_at < $1 AND (NOT online OR on_call_until <= $2)
       RETURNING 1`,
  },
];

/**
 * Erases positions older than POSITION_RETENTION_DAYS, by the job runner's `position-erasure` schedule (hourly).
 * Safe to run concurrently and again: each statement only touches rows still holding an old position.
 */
@Injectable()
export class PositionErasure {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  async sweep(): Promise<Record<string, number>> {
    const now = this.clock.now();
    const cutoff = new Date(now.getTime() - POSITION_RETENTION_DAYS * 86_400_000);
    const erased: Record<string, number> = {};
    for (const store of STORES) {
      erased[store.table] = (await sqlRows(this.ds, store.sql, [cutoff, now])).length;
    }
    return erased;
  }
}
