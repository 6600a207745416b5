import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The position trail (product-decisions §18): every position a worker reported, from availability reports and from
 * submissions (the device location, else the photo's EXIF GPS), so a submission can be compared with the worker's
 * previous known position (impossible travel). worker_availability keeps only the latest; this keeps 30 days, after
 * which the `position-trail-purge` job erases the rows. Index (worker_id, reported_at DESC) answers "the latest
 * position before t" with one index probe; (reported_at) serves the purge.
 */
export class PositionTrail1732200450000 implements MigrationInterface {
  name = 'PositionTrail1732200450000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE position_reports (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        worker_id uuid NOT NULL REFERENCES workers(id) ON DELETE CASCADE,
        latitude double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
        longitude double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
        accuracy_m real CHECK (accuracy_m >= 0),
        source text NOT NULL CHECK (source IN ('availability', 'submission_device', 'submission_photo')),
        reported_at timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE INDEX position_reports_worker_time ON position_reports (worker_id, reported_at DESC)`,
    );
    await q.query(`CREATE INDEX position_reports_time ON position_reports (reported_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE position_reports`);
  }
}
