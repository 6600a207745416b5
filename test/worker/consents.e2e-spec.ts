import { createAgent, createWorker, type TestWorker } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { expectError } from '../support/errors';

const SHANGHAI = { latitude: 31.2304, longitude: 121.4737 };

/**
 * Separate, versioned consent to precise location (PIPL; product-decisions §19): without it a worker cannot go on
 * call or report a position; withdrawing it takes the worker off call and erases the positions kept under it; a
 * newer text asks again. Jobs are off: nothing here needs them.
 */
describe('consent to precise location', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
  });
  afterAll(() => t.close());

  const consents = (w: TestWorker, prefix = '/v1') =>
    t.http.get(`${prefix}/worker/consents`).set('Authorization', w.bearer);
  const give = (w: TestWorker, body: Record<string, unknown>, prefix = '/v1') =>
    t.http.post(`${prefix}/worker/consents`).set('Authorization', w.bearer).send(body);
  const withdraw = (w: TestWorker, kind = 'precise_location', prefix = '/v1') =>
    t.http.delete(`${prefix}/worker/consents/${kind}`).set('Authorization', w.bearer);
  const report = (w: TestWorker, body: Record<string, unknown>) =>
    t.http.put('/v1/worker/availability').set('Authorization', w.bearer).send(body);
  const trail = async (w: TestWorker): Promise<string[]> =>
    (await t.db.query(`SELECT source FROM position_reports WHERE worker_id = $1 ORDER BY id`, [w.id])).map(
      (r: { source: string }) => r.source,
    );

  it('without consent, going on call and reporting a position answer 403 consent_required; going off does not', async () => {
    const worker = await createWorker(t, { consent: false });
    const list = await consents(worker).expect(200);
    expect(list.body.consents).toEqual([
      {
        kind: 'precise_location',
        version: 1,
        title: { en: 'Your precise location', zh: '您的精确位置' },
        text: { en: expect.stringContaining('30 days'), zh: expect.stringContaining('30 天') },
        given: false,
        given_version: null,
        given_at: null,
      },
    ]);

    const on = await report(worker, { online: true, ...SHANGHAI });
    expectError(on, 403, 'consent_required');
    expect(on.body.error).toMatchObject({ consent_kind: 'precise_location', consent_version: 1 });
    expectError(await report(worker, { online: false, ...SHANGHAI }), 403, 'consent_required');
    await report(worker, { online: false }).expect(200);
    expect(await trail(worker)).toEqual([]);
    const [row]: { latitude: number | null }[] = await t.db.query(
      `SELECT latitude FROM worker_availability WHERE worker_id = $1`,
      [worker.id],
    );
    expect(row.latitude).toBeNull();

    const given = await give(worker, { kind: 'precise_location' }, '/api/v1').expect(200);
    expect(given.body).toMatchObject({ kind: 'precise_location', given: true, given_version: 1 });
    expect(Math.abs(Date.parse(given.body.given_at) - t.clock.now().getTime())).toBeLessThan(5_000);
    const on2 = await report(worker, { online: true, ...SHANGHAI }).expect(200);
    expect(on2.body).toMatchObject({ online: true, matching: true });
    expect(await trail(worker)).toEqual(['availability']);
    // Giving it again changes nothing: still one consent on record.
    await give(worker, { kind: 'precise_location', version: 1 }).expect(200);
    const rows: unknown[] = await t.db.query(`SELECT 1 FROM worker_consents WHERE worker_id = $1`, [
      worker.id,
    ]);
    expect(rows).toHaveLength(1);
    expect((await consents(worker, '/api/v1').expect(200)).body.consents[0].given).toBe(true);
  });

  it('withdrawing takes the worker off call, erases the last position and the on-call trail, and asks again', async () => {
    const worker = await createWorker(t);
    await report(worker, { online: true, ...SHANGHAI }).expect(200);
    await report(worker, { online: true, latitude: 31.24, longitude: 121.48 }).expect(200);
    expect(await trail(worker)).toEqual(['availability', 'availability']);

    const res = await withdraw(worker).expect(200);
    expect(res.body).toMatchObject({ kind: 'precise_location', given: false, given_version: null });
    const now = await t.http.get('/v1/worker/availability').set('Authorization', worker.bearer).expect(200);
    expect(now.body).toMatchObject({ online: false, matching: false, latitude: null, position_at: null });
    expect(await trail(worker)).toEqual([]);
    const events: { name: string }[] = await t.db.query(
      `SELECT name FROM events WHERE worker_id = $1 AND name LIKE 'worker.%' ORDER BY seq`,
      [worker.id],
    );
    expect(events.map((e) => e.name)).toEqual(['worker.on_call', 'worker.off_call']);
    expectError(await report(worker, { online: true, ...SHANGHAI }), 403, 'consent_required');
    // The record keeps what was agreed to and when it ended.
    const [record]: { version: number; withdrawn_at: Date | null }[] = await t.db.query(
      `SELECT version, withdrawn_at FROM worker_consents WHERE worker_id = $1`,
      [worker.id],
    );
    expect(record.version).toBe(1);
    expect(record.withdrawn_at).not.toBeNull();
    // Withdrawing again answers the same; consenting again lets the worker back on call.
    await withdraw(worker, 'precise_location', '/api/v1').expect(200);
    await give(worker, { kind: 'precise_location' }).expect(200);
    await report(worker, { online: true, ...SHANGHAI }).expect(200);
  });

  it('a withdrawal racing position reports leaves the worker off call', async () => {
    const worker = await createWorker(t);
    await report(worker, { online: true, ...SHANGHAI }).expect(200);
    const reports = Array.from({ length: 10 }, (_, i) =>
      report(worker, { online: true, latitude: 31.2 + i / 1000, longitude: 121.47 }),
    );
    const [withdrawn, ...answers] = await Promise.all([withdraw(worker), ...reports]);
    expect(withdrawn.status).toBe(200);
    for (const a of answers) expect([200, 403]).toContain(a.status);
    const [row]: { online: boolean; latitude: number | null }[] = await t.db.query(
      `SELECT online, latitude FROM worker_availability WHERE worker_id = $1`,
      [worker.id],
    );
    expect(row).toEqual({ online: false, latitude: null });
    expect(await trail(worker)).toEqual([]);
  });

  it('refuses bad kinds and versions, and other callers', async () => {
    const worker = await createWorker(t, { consent: false });
    const agent = await createAgent(t);
    expectError(await give(worker, { kind: 'microphone' }), 400, 'validation_error');
    expectError(await give(worker, { kind: 'precise_location', version: 2 }), 400, 'validation_error');
    expectError(await give(worker, { kind: 'precise_location', version: '1' }), 400, 'validation_error');
    expectError(await give(worker, { kind: 'precise_location', extra: 1 }), 400, 'validation_error');
    expectError(await withdraw(worker, 'microphone'), 400, 'validation_error');
    expect((await consents(worker).expect(200)).body.consents[0].given).toBe(false);
    expectError(await t.http.get('/v1/worker/consents').set('Authorization', agent.key), 403, 'forbidden');
    expectError(
      await t.http
        .post('/v1/worker/consents')
        .set('Authorization', agent.key)
        .send({ kind: 'precise_location' }),
      403,
      'forbidden',
    );
    expectError(await t.http.get('/v1/worker/consents'), 401, 'authentication_required');
  });

  it('simulated workers of the sandbox are created with consent and go on call', async () => {
    const agent = await createAgent(t);
    const res = await t.http
      .post('/v1/sandbox/workers')
      .set('Authorization', agent.key)
      .send({ persona: 'reliable', location: SHANGHAI });
    expect(res.status).toBe(201);
    const [row]: { online: boolean; version: number }[] = await t.db.query(
      `SELECT av.online, c.version FROM worker_availability av
         JOIN worker_consents c ON c.worker_id = av.worker_id AND c.withdrawn_at IS NULL
        WHERE av.worker_id = $1`,
      [res.body.worker_id],
    );
    expect(row).toEqual({ online: true, version: 1 });
  });

  // Last: it publishes a newer text, which every later test of this file would be asked for.
  it('a newer version of the text asks again: the old consent no longer counts', async () => {
    const worker = await createWorker(t);
    await report(worker, { online: true, ...SHANGHAI }).expect(200);
    await t.db.query(
      `INSERT INTO consent_versions (kind, version, title_en, title_zh, text_en, text_zh, published_at)
       VALUES ('precise_location', 2, 'Your precise location', '您的精确位置', 'v2 text', 'v2 文本', $1)`,
      [t.clock.now()],
    );
    const list = await consents(worker).expect(200);
    expect(list.body.consents[0]).toMatchObject({
      version: 2,
      text: { en: 'v2 text', zh: 'v2 文本' },
      given: false,
      given_version: 1,
    });
    const refused = await report(worker, { online: true, ...SHANGHAI });
    expectError(refused, 403, 'consent_required');
    expect(refused.body.error.consent_version).toBe(2);
    // Consenting to the text seen before the change is refused: the worker must read the new one.
    expectError(await give(worker, { kind: 'precise_location', version: 1 }), 400, 'validation_error');
    await give(worker, { kind: 'precise_location', version: 2 }).expect(200);
    await report(worker, { online: true, ...SHANGHAI }).expect(200);
    const records: { version: number; ended: boolean }[] = await t.db.query(
      `SELECT version, withdrawn_at IS NOT NULL AS ended FROM worker_consents WHERE worker_id = $1 ORDER BY version`,
      [worker.id],
    );
    expect(records).toEqual([
      { version: 1, ended: true },
      { version: 2, ended: false },
    ]);
  });
});
