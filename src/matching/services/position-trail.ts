import { sqlExec, sqlRows, type SqlRunner } from '../../database/sql';
import type { TrailPoint } from '../travel';

/** Where a trail position came from. */
export type PositionSource = 'availability' | 'submission_device' | 'submission_photo';

export interface PositionReport {
  workerId: string;
  latitude: number;
  longitude: number;
  accuracyM: number | null;
  source: PositionSource;
  at: Date;
}

/**
 * The position trail (product-decisions §18), static helpers used inside their callers' transactions: every position a worker reported in the last 30 days, from
 * availability reports and from submissions, so a submission can be compared with the previous known position
 * (impossible travel, travel.ts). Positions are personal data: they are never logged, and PositionErasure erases them
 * after POSITION_RETENTION_DAYS (30).
 */
export class PositionTrail {
  /** Adds a position, in the caller's transaction (the report or submission that carries it). */
  static async record(db: SqlRunner, p: PositionReport): Promise<void> {
    await sqlExec(
      db,
      `INSERT INTO position_reports (worker_id, latitude, longitude, accuracy_m, source, reported_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      // Accuracy is kept to the decimetre: finer means nothing for a phone's fix, and a value such as 1e-307 would
      // underflow the real column.
      [
        p.workerId,
        p.latitude,
        p.longitude,
        p.accuracyM === null ? null : Math.round(p.accuracyM * 10) / 10,
        p.source,
        p.at,
      ],
    );
  }

  /** The worker's latest position reported at or before `at` (one probe of position_reports_worker_time). */
  static async previous(db: SqlRunner, workerId: string, at: Date): Promise<TrailPoint | null> {
    const [row] = await sqlRows<{ latitude: number; longitude: number; accuracy_m: number | null; at: Date }>(
      db,
      `SELECT latitude, longitude, accuracy_m, reported_at AS at FROM position_reports
        WHERE worker_id = $1 AND reported_at <= $2 ORDER BY reported_at DESC LIMIT 1`,
      [workerId, at],
    );
    return row ?? null;
  }

  /**
   * Erases the positions a worker reported while on call, when they withdraw their consent to precise location
   * (product-decisions §19): those were kept under it. Positions from submissions are proof of work done and follow
   * the ordinary erasure.
   */
  static async eraseOnCallPositions(db: SqlRunner, workerId: string): Promise<void> {
    await sqlExec(db, `DELETE FROM position_reports WHERE worker_id = $1 AND source = 'availability'`, [
      workerId,
    ]);
  }
}
