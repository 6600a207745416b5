import { createHash } from 'node:crypto';
import { TestApp } from '../support/app';
import {
  bearer,
  createAgentCredentials,
  createWorkerTestApp,
  newPhone,
  registerWorker,
  sendCode,
} from './worker-helpers';

describe('worker profile, access rules and stored secrets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createWorkerTestApp();
  });
  afterAll(() => t.close());

  describe('GET and PATCH /v1/worker/profile', () => {
    it("returns the worker's profile with the full number and the new-worker reputation 4.0", async () => {
      const w = await registerWorker(t, { display_name: 'Zhang San', skills: ['surveying'] });
      const res = await t.http
        .get('/v1/worker/profile')
        .set(...bearer(w.accessToken))
        .expect(200);
      expect(res.body).toEqual({
        worker_id: w.workerId,
        phone_number: w.phone,
        display_name: 'Zhang San',
        skills: ['surveying'],
        account_status: 'active',
        reputation: 4,
        reputation_details: {
          finished_tasks: 0,
          approved_tasks: 0,
          rating_count: 0,
          rating_average: null,
          median_response_minutes: null,
          live_assignment_limit: 3,
        },
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      });
      const api = await t.http
        .get('/api/v1/worker/profile')
        .set(...bearer(w.accessToken))
        .expect(200);
      expect(api.body).toEqual(res.body);
    });

    it('PATCH changes only the fields sent; display_name null clears it', async () => {
      const w = await registerWorker(t, { display_name: 'Before', skills: ['delivery'] });
      const patch = (body: object) =>
        t.http
          .patch('/v1/worker/profile')
          .set(...bearer(w.accessToken))
          .send(body)
          .expect(200);
      expect((await patch({ skills: ['driving', 'translation'] })).body).toMatchObject({
        display_name: 'Before',
        skills: ['driving', 'translation'],
      });
      expect((await patch({ display_name: 'After' })).body).toMatchObject({
        display_name: 'After',
        skills: ['driving', 'translation'],
      });
      expect((await patch({ display_name: null, skills: [] })).body).toMatchObject({
        display_name: null,
        skills: [],
      });
      expect((await patch({})).body).toMatchObject({ display_name: null, skills: [] });
      const [row]: { display_name: string | null; skills: string[] }[] = await t.db.query(
        `SELECT display_name, skills FROM workers WHERE id = $1`,
        [w.workerId],
      );
      expect(row).toEqual({ display_name: null, skills: [] });
    });

    it.each([
      [{ skills: ['cooking'] }, 'skills'],
      [{ display_name: ' ' }, 'display_name'],
      [{ display_name: 'x'.repeat(51) }, 'display_name'],
      [{ phone_number: '13900139000' }, 'phone_number'],
      [{ reputation: 5 }, 'reputation'],
    ])('PATCH rejects %j with validation_error naming %s', async (body, field) => {
      const w = await registerWorker(t);
      const res = await t.http
        .patch('/v1/worker/profile')
        .set(...bearer(w.accessToken))
        .send(body)
        .expect(400);
      expect(res.body.error.code).toBe('validation_error');
      const fields = new Set((res.body.error.details as { field: string }[]).map((d) => d.field));
      expect(fields).toEqual(new Set([field]));
    });
  });

  describe('access rules', () => {
    const routes: [string, string][] = [
      ['get', '/v1/worker/profile'],
      ['patch', '/v1/worker/profile'],
      ['get', '/api/v1/worker/profile'],
      ['patch', '/api/v1/worker/profile'],
    ];
    const call = (method: string, path: string) =>
      method === 'get' ? t.http.get(path) : t.http.patch(path).send({});

    it.each(routes)('%s %s without Authorization is 401 authentication_required', async (method, path) => {
      const res = await call(method, path).expect(401);
      expect(res.body.error.code).toBe('authentication_required');
    });

    it.each(routes)('%s %s with an agent JWT or API key is 403 forbidden', async (method, path) => {
      const agent = await createAgentCredentials(t);
      for (const token of [agent.jwt, agent.apiKey]) {
        const res = await call(method, path)
          .set(...bearer(token))
          .expect(403);
        expect(res.body.error.code).toBe('forbidden');
      }
    });

    it('a refresh token, a garbage token or an expired access token is 401 invalid_token', async () => {
      const w = await registerWorker(t);
      for (const token of [w.refreshToken, 'garbage']) {
        const res = await t.http
          .get('/v1/worker/profile')
          .set(...bearer(token))
          .expect(401);
        expect(res.body.error.code).toBe('invalid_token');
      }
      t.clock.advanceMinutes(16);
      const expired = await t.http
        .get('/v1/worker/profile')
        .set(...bearer(w.accessToken))
        .expect(401);
      expect(expired.body.error.code).toBe('invalid_token');
    });

    it('public routes need no worker credential: a request carrying an agent key is still served', async () => {
      const agent = await createAgentCredentials(t);
      await t.http
        .post('/v1/worker/send-sms')
        .query({ phone_number: newPhone() })
        .set(...bearer(agent.apiKey))
        .expect(200);
    });

    it('OpenAPI lists exactly these worker account routes, on both prefixes', async () => {
      const doc = await t.http.get('/openapi.json').expect(200);
      const own =
        /^\/(api\/)?v1\/worker\/(send-sms|verify-sms|reset-password|register|login|refresh|profile)$/;
      const found = Object.entries(doc.body.paths as Record<string, Record<string, unknown>>)
        .filter(([path]) => own.test(path))
        .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
        .sort();
      const expected = [
        'POST send-sms',
        'POST verify-sms',
        'POST reset-password',
        'POST register',
        'POST login',
        'POST refresh',
        'GET profile',
        'PATCH profile',
      ]
        .flatMap((r) => {
          const [method, path] = r.split(' ');
          return [`${method} /v1/worker/${path}`, `${method} /api/v1/worker/${path}`];
        })
        .sort();
      expect(found).toEqual(expected);
    });
  });

  it('stores no password, SMS code or refresh token in clear', async () => {
    const password = 'plain-text-password-marker';
    const phone = newPhone();
    const code = await sendCode(t, phone, 'register');
    const reg = await t.http
      .post('/v1/worker/register')
      .send({ phone_number: phone, password, sms_code: code })
      .expect(201);
    const refreshed = await t.http
      .post('/v1/worker/refresh')
      .send({ refresh_token: reg.body.refresh_token })
      .expect(200);
    t.clock.advanceMinutes(1);
    const loginCode = await sendCode(t, phone, 'login');

    const dump = async (sql: string, param: string): Promise<string> =>
      JSON.stringify(await t.db.query(sql, [param]));
    const workers = await dump(`SELECT * FROM workers WHERE phone_number = $1`, phone);
    const codes = await dump(`SELECT * FROM sms_codes WHERE phone_number = $1`, phone);
    const tokens = await dump(`SELECT * FROM refresh_tokens WHERE subject_id = $1`, reg.body.worker_id);

    expect(workers).not.toContain(password);
    const [w]: { password_hash: string }[] = await t.db.query(
      `SELECT password_hash FROM workers WHERE id = $1`,
      [reg.body.worker_id],
    );
    expect(w.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,/);

    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    for (const c of [code, loginCode]) {
      expect(codes).not.toContain(`"${c}"`);
      expect(codes).not.toContain(sha(c));
      expect(codes).not.toContain(sha(`register:${phone}:${c}`));
    }
    const hashes: { code_hash: string }[] = await t.db.query(
      `SELECT code_hash FROM sms_codes WHERE phone_number = $1`,
      [phone],
    );
    expect(hashes).toHaveLength(2);
    for (const h of hashes) expect(h.code_hash).toMatch(/^[0-9a-f]{64}$/);

    for (const token of [reg.body.refresh_token, refreshed.body.refresh_token]) {
      expect(tokens).not.toContain(token);
      expect(tokens).not.toContain(token.split('.')[2]); // not even the signature part
      expect(tokens).toContain(sha(token));
    }
  });
});
