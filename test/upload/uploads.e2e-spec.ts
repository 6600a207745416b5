import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import {
  createUploadTestApp,
  jpeg,
  padded,
  png,
  STORAGE_DRIVERS,
  uploadProof,
  type UploadTestApp,
} from '../support/photos';
import { FileStorage } from '../../src/upload/storage/file-storage';
import { expectError } from '../support/errors';
import { accept, createTask, feedback, submit } from '../support/tasks';

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);

function isoMedia(major: string, compatible: string[]): Buffer {
  const body = Buffer.concat([
    Buffer.from('ftyp' + major, 'latin1'),
    Buffer.alloc(4),
    ...compatible.map((c) => Buffer.from(c, 'latin1')),
  ]);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(body.length + 4);
  return Buffer.concat([size, body, Buffer.alloc(256, 1)]);
}

describe.each(STORAGE_DRIVERS)('uploads (%s storage)', (driver) => {
  let t: UploadTestApp;
  let agent: TestAgent;
  let worker: TestWorker;
  beforeAll(async () => {
    t = await createUploadTestApp({}, { driver });
    agent = await createAgent(t, { balanceCents: 1_000_000 });
    worker = await createWorker(t);
  });
  afterAll(() => t.close());

  const here = { latitude: 31.2304, longitude: 121.4737 };

  it('stores a JPEG as sent (EXIF kept), records GPS and capture time, and serves it', async () => {
    const bytes = await jpeg({ gps: here, takenAt: '2030:01:02 03:04:05' });
    const res = await uploadProof(t, worker, bytes, 'shop front.jpg').expect(201);
    expect(res.body).toEqual({
      upload_id: expect.any(String),
      url: expect.stringMatching(
        /^http:\/\/localhost:8000\/uploads\/task-proofs\/\d{4}-\d{2}-\d{2}\/[\w-]{24}\.jpg$/,
      ),
      category: 'task-proofs',
      content_type: 'image/jpeg',
      size_bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      original_name: 'shop front.jpg',
      gps: { latitude: expect.any(Number), longitude: expect.any(Number) },
      taken_at: '2030-01-02T03:04:05.000Z',
      created_at: expect.any(String),
    });
    expect(res.body.gps.latitude).toBeCloseTo(here.latitude, 5);
    expect(res.body.gps.longitude).toBeCloseTo(here.longitude, 5);
    const served = await t.fetchFile(res.body.url);
    expect(served.status).toBe(200);
    expect(served.contentType).toBe('image/jpeg');
    expect(Buffer.compare(served.body, bytes)).toBe(0);
    const direct = await t.http.get(new URL(res.body.url).pathname);
    if (driver === 'local') {
      expect(served.signedUrl).toBeNull();
      expect(direct.headers['x-content-type-options']).toBe('nosniff');
    } else {
      // A short-lived signed URL of the bucket, never cached longer than it works.
      expect(direct.status).toBe(302);
      expect(direct.headers['cache-control']).toBe('no-store');
      const signed = new URL(served.signedUrl!);
      expect(signed.origin).not.toBe(new URL(res.body.url).origin);
      expect(signed.searchParams.get('X-Amz-Expires')).toBe('300');
      expect(signed.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      expect(signed.searchParams.get('response-content-type')).toBe('image/jpeg');
      // The web apps show this photo: the policy's img-src names the bucket's origin, where the 302 leads.
      const imgSrc = /img-src ([^;]*)/.exec(String(direct.headers['content-security-policy']))![1].split(' ');
      expect(imgSrc).toContain(signed.origin);
    }
  });

  it('the store reads back what it wrote (FileStorage.open, as photo checks after upload use it)', async () => {
    const bytes = await jpeg({ gps: here });
    const res = await uploadProof(t, worker, bytes).expect(201);
    const key = new URL(res.body.url).pathname.slice('/uploads/'.length);
    const storage = t.app.get(FileStorage);
    const file = (await storage.open(key))!;
    expect(file.size).toBe(bytes.length);
    const chunks: Buffer[] = [];
    for await (const chunk of file.stream) chunks.push(chunk as Buffer);
    expect(Buffer.compare(Buffer.concat(chunks), bytes)).toBe(0);
    expect(await storage.open('task-proofs/2030-01-01/AAAAAAAAAAAAAAAAAAAAAAAA.jpg')).toBeNull();
    await expect(storage.open('../../etc/passwd')).rejects.toThrow('not a storage key');
  });

  it.each([
    ['a PNG named .jpg is a PNG', () => png(), 'photo.jpg', 'image/png', 'png'],
    ['a PDF', async () => PDF, 'scan.pdf', 'application/pdf', 'pdf'],
    ['an MP4', async () => isoMedia('isom', ['isom', 'avc1']), 'clip.mp4', 'video/mp4', 'mp4'],
    [
      'a MOV named .mp4 is a MOV',
      async () => isoMedia('qt  ', ['qt  ']),
      'clip.mp4',
      'video/quicktime',
      'mov',
    ],
  ])('types come from the bytes: %s', async (_name, make, filename, mime, ext) => {
    const res = await uploadProof(t, worker, await make(), filename).expect(201);
    expect(res.body.content_type).toBe(mime);
    expect(res.body.url.endsWith(`.${ext}`)).toBe(true);
    const served = await t.fetchFile(res.body.url);
    expect(served.status).toBe(200);
    expect(served.contentType).toContain(mime);
    expect(served.contentDisposition).toBe(
      mime === 'application/pdf' ? `attachment; filename="${res.body.url.split('/').pop()}"` : 'inline',
    );
  });

  it('refuses other content whatever its name: 415; damaged images 400 invalid_photo; over 10 MB 413; nothing kept', async () => {
    const before = await t.storedFiles();
    const text = await uploadProof(t, worker, Buffer.from('I am not a photo, just text.'), 'photo.jpg');
    expectError(text, 415, 'unsupported_media_type');
    expect(text.body.error).toMatchObject({ detected_type: null });
    const gif = await uploadProof(
      t,
      worker,
      Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
      'a.gif',
    );
    expectError(gif, 415, 'unsupported_media_type');
    const cut = await jpeg();
    expectError(await uploadProof(t, worker, cut.subarray(0, cut.length - 30)), 400, 'invalid_photo');
    const big = await uploadProof(t, worker, padded(await jpeg(), 11 * 1024 * 1024));
    expectError(big, 413, 'payload_too_large');
    expect(big.body.error.max_bytes).toBe(10 * 1024 * 1024);
    expect(await t.storedFiles()).toBe(before);
    expect(readdirSync(t.stagingDir)).toEqual([]);
  });

  it('multiple: up to 5 files, all stored or none', async () => {
    const ok = await t.http
      .post('/v1/upload/task-proofs-multiple')
      .set('Authorization', worker.bearer)
      .attach('files', await jpeg(), 'a.jpg')
      .attach('files', PDF, 'b.pdf')
      .expect(201);
    expect(ok.body.files.map((f: { content_type: string }) => f.content_type)).toEqual([
      'image/jpeg',
      'application/pdf',
    ]);

    const before = await t.storedFiles();
    const [{ n: rowsBefore }] = await t.db.query(`SELECT count(*)::int AS n FROM uploads`);
    const mixed = await t.http
      .post('/v1/upload/task-proofs-multiple')
      .set('Authorization', worker.bearer)
      .attach('files', await jpeg(), 'a.jpg')
      .attach('files', Buffer.from('plain text'), 'b.jpg');
    expectError(mixed, 415, 'unsupported_media_type');
    expect(mixed.body.error.field).toBe('files[1]');
    let six = t.http.post('/v1/upload/task-proofs-multiple').set('Authorization', worker.bearer);
    for (let i = 0; i < 6; i++) six = six.attach('files', PDF, `f${i}.pdf`);
    expectError(await six, 400, 'validation_error');
    expect(await t.storedFiles()).toBe(before);
    expect(readdirSync(t.stagingDir)).toEqual([]);
    const [{ n: rowsAfter }] = await t.db.query(`SELECT count(*)::int AS n FROM uploads`);
    expect(rowsAfter).toBe(rowsBefore);
  });

  it('a file is required, in the right field; workers only', async () => {
    const none = await t.http
      .post('/v1/upload/task-proof')
      .set('Authorization', worker.bearer)
      .field('x', 'y');
    expectError(none, 400, 'validation_error');
    const wrongField = await t.http
      .post('/v1/upload/task-proof')
      .set('Authorization', worker.bearer)
      .attach('photo', PDF, 'a.pdf');
    expectError(wrongField, 400, 'validation_error');
    expect(wrongField.body.error.details[0].field).toBe('file');
    const json = await t.http
      .post('/v1/upload/task-proof')
      .set('Authorization', worker.bearer)
      .send({ file: 'x' });
    expectError(json, 400, 'validation_error');
    expectError(
      await t.http.post('/v1/upload/task-proof').set('Authorization', agent.key).attach('file', PDF, 'a.pdf'),
      403,
      'forbidden',
    );
    expectError(
      await t.http.post('/v1/upload/task-proof').attach('file', PDF, 'a.pdf'),
      401,
      'authentication_required',
    );
  });

  it('serving: malformed path parts are 400 (no traversal), unknown files 404', async () => {
    for (const path of [
      '/uploads/task-proofs/2030-01-01/..%2F..%2F..%2Fetc%2Fpasswd',
      '/uploads/..%2F..%2Fetc/2030-01-01/AAAAAAAAAAAAAAAAAAAAAAAA.jpg',
      '/uploads/task-proofs/..%2F2030-01-01/AAAAAAAAAAAAAAAAAAAAAAAA.jpg',
      '/uploads/task-proofs/2030-01-01/AAAAAAAAAAAAAAAAAAAAAAAA.exe',
      '/uploads/task-proofs/2030-01-01/.AAAAAAAAAAAAAAAAAAAAAAA.jpg',
      '/uploads/secrets/2030-01-01/AAAAAAAAAAAAAAAAAAAAAAAA.jpg',
      '/uploads/task-proofs/yesterday/AAAAAAAAAAAAAAAAAAAAAAAA.jpg',
    ]) {
      expectError(await t.http.get(path), 400, 'validation_error');
    }
    expectError(
      await t.http.get('/uploads/task-proofs/2030-01-01/AAAAAAAAAAAAAAAAAAAAAAAA.jpg'),
      404,
      'not_found',
    );
    const raw = await t.http.get('/uploads/../../etc/passwd');
    expect([400, 404]).toContain(raw.status);
  });

  it('photo_urls of a submission must be the worker’s own uploads; their capture time reaches the result', async () => {
    const other = await createWorker(t);
    const theirs = (await uploadProof(t, other, await jpeg({ gps: here }))).body.url as string;
    const mine = await uploadProof(
      t,
      worker,
      await jpeg({ gps: here, takenAt: '2030:03:04 05:06:07' }),
    ).expect(201);
    const taskId = await createTask(t, agent, { location: here });
    const a = await accept(t, worker, taskId);

    for (const urls of [
      [theirs],
      [mine.body.url, 'https://example.com/x.jpg'],
      ['/uploads/task-proofs/2030-01-01/AAAAAAAAAAAAAAAAAAAAAAAA.jpg'],
    ]) {
      const res = await submit(t, worker, a, { result_data: { ok: true }, photo_urls: urls });
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details[0].field).toMatch(/^photo_urls\[\d\]$/);
    }
    const [unchanged] = await t.db.query(
      `SELECT status, result_data, photos FROM assignments WHERE id = $1`,
      [a],
    );
    expect(unchanged).toEqual({ status: 'accepted', result_data: null, photos: [] });

    const path = new URL(mine.body.url).pathname; // a path works as well as the full URL
    await submit(t, worker, a, { result_data: { ok: true }, photo_urls: [path] }).expect(200);
    await feedback(t, agent, taskId, { accept_result: true }).expect(200);
    const result = await t.http.get(`/v1/tasks/${taskId}/result`).set('Authorization', agent.key).expect(200);
    expect(result.body.result.photos).toEqual([
      {
        url: mine.body.url,
        taken_at: '2030-03-04T05:06:07.000Z',
        distance_meters: 0,
        field: null,
        verification: expect.objectContaining({ location_source: 'exif', sha256: mine.body.sha256 }),
      },
    ]);
  });
});
