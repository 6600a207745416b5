import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Files workers upload as proof (product-decisions §9). The bytes live in a FileStorage (local disk by default) under
 * `storage_key` = `{category}/{YYYY-MM-DD}/{random}.{ext}`; this row records who owns them and what they are.
 * Images keep their EXIF; the GPS position and capture time read from it are stored here.
 */
export class Uploads1732200010100 implements MigrationInterface {
  name = 'Uploads1732200010100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE uploads (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        worker_id uuid NOT NULL REFERENCES workers (id),
        category text NOT NULL CHECK (category IN ('task-proofs', 'task-photos')),
        storage_key text NOT NULL UNIQUE CHECK (storage_key ~ '^[a-z-]+/[0-9]{4}-[0-9]{2}-[0-9]{2}/[A-Za-z0-9_-]+[.][a-z0-9]+$'),
        original_name text CHECK (char_length(original_name) <= 255),
        content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'application/pdf', 'video/mp4',
                                                           'video/quicktime')),
        size_bytes integer NOT NULL CHECK (size_bytes > 0),
        sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        latitude double precision CHECK (latitude BETWEEN -90 AND 90),
        longitude double precision CHECK (longitude BETWEEN -180 AND 180),
        taken_at timestamptz,
        created_at timestamptz NOT NULL,
        CONSTRAINT uploads_gps_pair CHECK ((latitude IS NULL) = (longitude IS NULL))
      )`);
    await q.query(`CREATE INDEX uploads_worker_idx ON uploads (worker_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE uploads`);
  }
}
