import { sqlRows, type SqlRunner } from '../database/sql';
import { bandsOf, probesOf, REUSE_MAX_DISTANCE, toSigned } from '../upload/perceptual-hash';

/** An earlier checked photo within REUSE_MAX_DISTANCE bits: whose it was and how close, nothing of its task. */
export interface NearPhoto {
  worker_id: string;
  distance: number;
  created_at: Date;
}

/** One checked photo of a submission, as recorded for later searches. */
export interface HashedPhoto {
  phash: bigint;
  worker_id: string;
  agent_id: string;
  task_id: string;
  assignment_id: string;
}

/**
 * The platform-wide index of checked photos' perceptual hashes (product-decisions §18; the table and its banded
 * multi-index: migrations/1732200400000-photo-hashes.ts). Both calls run in the submission's transaction.
 */
export const PhotoHashRepository = {
  /**
   * Earlier photos within REUSE_MAX_DISTANCE bits of `phash`, of any worker and agent, nearest first (at most 20),
   * leaving out the submitting assignment's own. Each band's value and its one-bit neighbours are probed through the
   * band's index (four bitmap scans, OR-ed), and the exact distance is computed on those candidates only.
   */
  async near(db: SqlRunner, phash: bigint, assignmentId: string): Promise<NearPhoto[]> {
    const probes = bandsOf(phash).map((b) => probesOf(b));
    return sqlRows<NearPhoto>(
      db,
      `SELECT worker_id, created_at, d AS distance FROM (
         SELECT worker_id, created_at, bit_count(int8send(phash # $1::bigint)) AS d FROM photo_hashes
          WHERE (band0 = ANY($2::int[]) OR band1 = ANY($3::int[]) OR band2 = ANY($4::int[]) OR band3 = ANY($5::int[]))
            AND assignment_id <> $6) c
        WHERE d <= $7 ORDER BY d, created_at LIMIT 20`,
      [toSigned(phash).toString(), ...probes, assignmentId, REUSE_MAX_DISTANCE],
    ).then((rows) => rows.map((r) => ({ ...r, distance: Number(r.distance) })));
  },

  async record(db: SqlRunner, p: HashedPhoto, now: Date): Promise<void> {
    const [b0, b1, b2, b3] = bandsOf(p.phash);
    await sqlRows(
      db,
      `INSERT INTO photo_hashes (phash, band0, band1, band2, band3, worker_id, agent_id, task_id, assignment_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        toSigned(p.phash).toString(),
        b0,
        b1,
        b2,
        b3,
        p.worker_id,
        p.agent_id,
        p.task_id,
        p.assignment_id,
        now,
      ],
    );
  },
};
