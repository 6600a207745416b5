import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Location proof (product-decisions §11).
 *
 * tasks.location_proof: what proves a photo's place, `photo_gps` (EXIF GPS, the spec's rule and every existing
 * task's) or `photo_or_device_gps` (EXIF GPS, else the device fix sent with the submission).
 * assignments.device_location: that fix, as submitted ({latitude, longitude, accuracy_m, captured_at}).
 * The photos of a submission (assignments.photos) carry each photo's SHA-256 in their verification; a new
 * submission looks up earlier ones with the same bytes by containment (photos @> [{verification: {sha256}}]), which
 * this GIN index answers without reading every submission.
 */
export class LocationProof1732200091000 implements MigrationInterface {
  name = 'LocationProof1732200091000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tasks ADD COLUMN location_proof text NOT NULL DEFAULT 'photo_gps'
                     CONSTRAINT tasks_location_proof_check CHECK (location_proof IN ('photo_gps', 'photo_or_device_gps'))`);
    await q.query(`ALTER TABLE assignments ADD COLUMN device_location jsonb
                     CONSTRAINT assignments_device_location_object CHECK (jsonb_typeof(device_location) = 'object')`);
    await q.query(`CREATE INDEX assignments_photos_idx ON assignments USING gin (photos jsonb_path_ops)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX assignments_photos_idx`);
    await q.query(`ALTER TABLE assignments DROP COLUMN device_location`);
    await q.query(`ALTER TABLE tasks DROP COLUMN location_proof`);
  }
}
