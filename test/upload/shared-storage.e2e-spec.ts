import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createAgent, createWorker } from '../support/actors';
import { closeHeldUploads, heldUpload, listen, until } from '../support/held-upload';
import { startS3Server, type S3TestServer } from '../support/object-storage';
import { createUploadTestApp, jpeg, padded, uploadProof, type UploadTestApp } from '../support/photos';
import { expectError } from '../support/errors';
import { accept, createTask, feedback, submit } from '../support/tasks';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const PDF_HEAD = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n', 'latin1');

/**
 * Two API instances of one deployment behind a load balancer (one PostgreSQL, one Redis): a file uploaded through
 * one must be served by the other. With local disk it is not (each instance has its own UPLOAD_DIR), which is why
 * several instances need STORAGE=s3.
 */
describe('two API instances', () => {
  const here = { latitude: 22.5431, longitude: 114.0579 };

  it('local disk: a photo uploaded through one instance is 404 on the other (the problem)', async () => {
    const a = await createUploadTestApp();
    const b = await createUploadTestApp({}, { databaseName: a.databaseName });
    try {
      const worker = await createWorker(a);
      const up = await uploadProof(a, worker, await jpeg({ gps: here })).expect(201);
      expect((await a.fetchFile(up.body.url)).status).toBe(200);
      const elsewhere = await b.http.get(new URL(up.body.url).pathname);
      expectError(elsewhere, 404, 'not_found');
    } finally {
      await b.close();
      await a.close();
    }
  });

  describe('sharing an S3 bucket', () => {
    let s3: S3TestServer;
    let a: UploadTestApp;
    let b: UploadTestApp;
    const env = {
      REDIS_URL,
      REDIS_KEY_PREFIX: `lwtest-${randomUUID()}`,
      UPLOAD_MAX_CONCURRENT_PER_WORKER: '2',
    };
    beforeAll(async () => {
      s3 = await startS3Server();
      a = await createUploadTestApp(env, { driver: 's3', s3 });
      b = await createUploadTestApp(env, { driver: 's3', s3, databaseName: a.databaseName });
    });
    afterAll(async () => {
      closeHeldUploads();
      await b?.close();
      await a?.close();
      await s3?.close();
    });

    it('a photo uploaded through one instance is served by the other, and proves a submission made there', async () => {
      const agent = await createAgent(a, { balanceCents: 1_000_000 });
      const worker = await createWorker(a);
      const photo = await jpeg({ gps: here, takenAt: '2030:07:08 09:10:11' });
      const up = await uploadProof(a, worker, photo).expect(201);

      const served = await b.fetchFile(up.body.url);
      expect(served.status).toBe(200);
      expect(served.contentType).toBe('image/jpeg');
      expect(Buffer.compare(served.body, photo)).toBe(0);
      expect(new URL(served.signedUrl!).origin).toBe(s3.endpoint);

      // The worker submits through the other instance, citing the upload; the agent reads the result there too.
      const taskId = await createTask(b, agent, { location: here });
      const assignment = await accept(b, worker, taskId);
      await submit(b, worker, assignment, { result_data: { ok: true }, photo_urls: [up.body.url] }).expect(
        200,
      );
      await feedback(b, agent, taskId, { accept_result: true }).expect(200);
      const result = await b.http
        .get(`/v1/tasks/${taskId}/result`)
        .set('Authorization', agent.key)
        .expect(200);
      expect(result.body.result.photos).toEqual([
        {
          url: up.body.url,
          taken_at: '2030-07-08T09:10:11.000Z',
          distance_meters: 0,
          field: null,
          verification: expect.objectContaining({ location_source: 'exif', sha256: up.body.sha256 }),
        },
      ]);
      expect(Buffer.compare((await a.fetchFile(up.body.url)).body, photo)).toBe(0);
    });

    it('the concurrency quota holds across instances (slots in Redis)', async () => {
      const worker = await createWorker(a);
      const baseA = await listen(a);
      const file = padded(PDF_HEAD, 300_000);
      const held = [heldUpload(baseA, worker, file), heldUpload(baseA, worker, file)];
      await until(() => readdirSync(a.stagingDir).length >= 2, 'instance A staging the two held uploads');

      const onB = await b.http
        .post('/v1/upload/task-proof')
        .set('Authorization', worker.bearer)
        .attach('file', padded(PDF_HEAD, 10_000), 'scan.pdf');
      expectError(onB, 429, 'too_many_concurrent_uploads');

      expect((await Promise.all(held.map((h) => h.finish()))).map((d) => d.status)).toEqual([201, 201]);
      await b.http
        .post('/v1/upload/task-proof')
        .set('Authorization', worker.bearer)
        .attach('file', padded(PDF_HEAD, 10_000), 'scan.pdf')
        .expect(201);
    });
  });
});
