import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Proof integrity, photo side (product-decisions §18, docs/proof-integrity.md).
 *
 * uploads.phash and uploads.exif: a photo's 64-bit perceptual hash and the EXIF facts forensics read, recorded when
 * the bytes arrive (the upload route or submit-with-photo), so a submission naming the upload later judges it
 * without reading the file again. Null for other files, featureless images and uploads made before this migration.
 *
 * photo_hashes: one row per checked photo of a submission, platform-wide, for near-duplicate search by Hamming
 * distance. The hash is split into four 16-bit bands, each with its own index (a multi-index): two hashes within
 * distance d share a band exactly when d <= 3, and one band within one bit when d <= 7, so probing each band's value
 * and its 16 one-bit neighbours finds every earlier hash within 7 bits, then the exact distance is computed on the
 * few candidates. The hash is stored signed (PostgreSQL's bigint); the bands are of the unsigned value.
 */
export class PhotoHashes1732200400000 implements MigrationInterface {
  name = 'PhotoHashes1732200400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE uploads ADD COLUMN phash bigint, ADD COLUMN exif jsonb`);
    await q.query(`
      CREATE TABLE photo_hashes (
        id bigserial PRIMARY KEY,
        phash bigint NOT NULL,
        band0 integer NOT NULL CHECK (band0 BETWEEN 0 AND 65535),
        band1 integer NOT NULL CHECK (band1 BETWEEN 0 AND 65535),
        band2 integer NOT NULL CHECK (band2 BETWEEN 0 AND 65535),
        band3 integer NOT NULL CHECK (band3 BETWEEN 0 AND 65535),
        worker_id uuid NOT NULL REFERENCES workers (id),
        agent_id uuid NOT NULL REFERENCES agents (id),
        task_id uuid NOT NULL REFERENCES tasks (id),
        assignment_id uuid NOT NULL REFERENCES assignments (id),
        created_at timestamptz NOT NULL
      )`);
    for (const b of [0, 1, 2, 3]) {
      await q.query(`CREATE INDEX photo_hashes_band${b}_idx ON photo_hashes (band${b})`);
    }
    await q.query(`CREATE INDEX photo_hashes_assignment_idx ON photo_hashes (assignment_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE photo_hashes`);
    await q.query(`ALTER TABLE uploads DROP COLUMN exif, DROP COLUMN phash`);
  }
}
