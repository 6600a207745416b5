import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { PERMISSIONS, type Permission } from '../../src/common/actor';
import { createAgent, createWorker, type TestAgent, type TestWorker } from '../support/actors';
import { createAdmin, type TestAdmin } from '../support/admins';
import { createTestApp, type TestApp } from '../support/app';
import { loadOpenApi, type Operation, validate } from '../support/openapi-schemas';

/**
 * The security table, generated from openapi/openapi.json: for every operation, who the OpenAPI says may call it
 * (its `security` requirements: api_key and agent_jwt are agents, worker_jwt workers, admin_jwt operators;
 * api_secret adds the X-API-Secret header) and which permission an API key needs (`x-permissions`, written by @Auth
 * from the rule the guard enforces). Each row is checked against the running app:
 *
 * - no credentials: 401 authentication_required in the error envelope;
 * - a valid credential of a kind the operation does not accept (a worker token on an agent route, an agent key on
 *   a worker or operator route, an API key where only the agent's login token is accepted, ...): 403 forbidden;
 * - an API key holding every permission but the operation's: 403 insufficient_permissions;
 * - and, so the refusals above cannot be the route refusing everyone, the accepted credentials get past the guard
 *   (whatever the handler then says about the made-up ids and empty body, it is not 401 or an access 403).
 *
 * Operations without security must be exactly the reviewed PUBLIC list, and answer without credentials: a route
 * that loses its @Auth (or gains @Public) fails here, whether or not openapi.json was regenerated.
 */
const doc = loadOpenApi();
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];

/** Reviewed: the operations anyone may call. Adding one here is a security decision. */
const PUBLIC = [
  'GET /',
  'GET /health',
  'GET /livez',
  'GET /readyz',
  'GET /v1/ws/stats',
  'GET /uploads/{category}/{date}/{filename}',
  'GET /v1/payment/health',
  'GET /v1/payment/providers',
  // account creation, login, token refresh and logout (the refresh token in the body is the credential, so a
  // lapsed access token does not keep anyone from ending their session)
  ...['/v1', '/api/v1'].flatMap((p) => [
    `POST ${p}/agent/register`,
    `POST ${p}/agent/login`,
    `POST ${p}/agent/refresh`,
    `POST ${p}/agent/logout`,
    `POST ${p}/worker/send-sms`,
    `POST ${p}/worker/verify-sms`,
    `POST ${p}/worker/register`,
    `POST ${p}/worker/login`,
    `POST ${p}/worker/refresh`,
    `POST ${p}/worker/logout`,
    `POST ${p}/worker/reset-password`,
  ]),
  'POST /v1/admin/login',
  'POST /v1/admin/login/totp',
  'POST /v1/admin/refresh',
  'POST /v1/admin/logout',
  // payment providers' notifications: authenticated by the provider's signature, not by a bearer credential
  'POST /webhooks/alipay',
  'POST /webhooks/wechat',
  'POST /api/webhooks/alipay',
  'POST /api/webhooks/wechat',
  'POST /v1/payment/alipay/callback',
].sort();

type Scheme = 'api_key' | 'agent_jwt' | 'worker_jwt' | 'admin_jwt';
const SCHEMES: Scheme[] = ['api_key', 'agent_jwt', 'worker_jwt', 'admin_jwt'];
const KIND: Record<Scheme, string> = {
  api_key: 'an agent API key',
  agent_jwt: 'an agent login token',
  worker_jwt: 'a worker token',
  admin_jwt: 'an operator token',
};

interface Row {
  method: Method;
  path: string;
  name: string;
  /** Schemes any requirement accepts. */
  accepted: Scheme[];
  /** X-API-Secret required with the agent's credential. */
  apiSecret: boolean;
  permissions: Permission[];
}

const all = Object.entries(doc.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] })),
);
const rows: Row[] = all
  .filter(({ op }) => op.security?.length)
  .map(({ method, path, op }) => row(method, path, op));
const publicOps = all.filter(({ op }) => !op.security?.length);

function row(method: Method, path: string, op: Operation): Row {
  const schemes = new Set(op.security!.flatMap((r) => Object.keys(r)));
  const unknown = [...schemes].filter((s) => s !== 'api_secret' && !SCHEMES.includes(s as Scheme));
  if (unknown.length) throw new Error(`${method} ${path}: unknown security scheme ${unknown.join(', ')}`);
  return {
    method,
    path,
    name: `${method.toUpperCase()} ${path}`,
    accepted: SCHEMES.filter((s) => schemes.has(s)),
    apiSecret: schemes.has('api_secret'),
    permissions: (op['x-permissions'] ?? []) as Permission[],
  };
}

/** Path parameters filled with fresh UUIDs: the guard runs before any parameter is parsed. */
function url(path: string): string {
  return path.replace(/\{[^}]+\}/g, () => randomUUID());
}

describe('security table (openapi/openapi.json against the running app)', () => {
  let t: TestApp;
  let agent: TestAgent;
  let worker: TestWorker;
  let admin: TestAdmin;
  /** Per permission, an agent whose only API key holds every permission but that one. */
  const lacking = new Map<Permission, TestAgent>();

  beforeAll(async () => {
    t = await createTestApp({
      WORKER_RATE_LIMIT_PER_MINUTE: '100000',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      JOBS_IN_PROCESS: 'false',
    });
    agent = await createAgent(t);
    worker = await createWorker(t);
    admin = await createAdmin(t);
    for (const p of PERMISSIONS) {
      lacking.set(p, await createAgent(t, { permissions: PERMISSIONS.filter((q) => q !== p) }));
    }
  });
  afterAll(() => t.close());

  function send(r: Pick<Row, 'method' | 'path'>, headers: Record<string, string>) {
    let req = t.http[r.method](url(r.path));
    for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
    return req;
  }

  interface Actors {
    agent: TestAgent;
    worker: TestWorker;
    admin: TestAdmin;
  }

  function credential(r: Row, scheme: Scheme, who: Partial<Actors> = {}): Record<string, string> {
    const a = who.agent ?? agent;
    const secret: Record<string, string> = r.apiSecret ? { 'X-API-Secret': a.apiSecret } : {};
    switch (scheme) {
      case 'api_key':
        return { Authorization: a.key, ...secret };
      case 'agent_jwt':
        return { Authorization: a.bearer, ...secret };
      case 'worker_jwt':
        return { Authorization: (who.worker ?? worker).bearer };
      case 'admin_jwt':
        return { Authorization: (who.admin ?? admin).bearer };
    }
  }

  /** The error envelope of the OpenAPI, with the expected status and code and the request's id. */
  function expectEnvelope(res: Response, status: number, code: string): void {
    const problems = validate(doc, { $ref: '#/components/schemas/ErrorEnvelope' }, res.body);
    const got = `${res.status} ${JSON.stringify(res.body)}`;
    if (res.status !== status || res.body?.error?.code !== code || problems.length) {
      throw new Error(`expected ${status} ${code} in the error envelope, got ${got} ${problems.join('; ')}`);
    }
    expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
  }

  it('the table covers every operation, and those without security are exactly the reviewed public ones', () => {
    expect(rows.length + publicOps.length).toBe(all.length);
    expect(publicOps.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort()).toEqual(PUBLIC);
    // Every permission the code knows is required somewhere, so the table exercises each one.
    expect([...new Set(rows.flatMap((r) => r.permissions))].sort()).toEqual([...PERMISSIONS].sort());
  });

  it.each(publicOps.map((o) => ({ ...o, name: `${o.method.toUpperCase()} ${o.path}` })))(
    'public $name answers without credentials',
    async (o) => {
      const res = await send(o, {});
      expect(res.status).not.toBe(401);
      expect(res.status).not.toBe(403);
    },
  );

  it.each(rows)('$name: no credentials -> 401 authentication_required', async (r) => {
    expectEnvelope(await send(r, {}), 401, 'authentication_required');
  });

  const wrongKind = rows.flatMap((r) =>
    SCHEMES.filter((s) => !r.accepted.includes(s)).map((scheme) => ({ ...r, scheme, kind: KIND[scheme] })),
  );
  it.each(wrongKind)('$name: $kind -> 403 forbidden', async (r) => {
    expectEnvelope(await send(r, credential(r, r.scheme)), 403, 'forbidden');
  });

  const keyPermissions = rows
    .filter((r) => r.accepted.includes('api_key'))
    .flatMap((r) => r.permissions.map((permission) => ({ ...r, permission })));
  it.each(keyPermissions)(
    '$name: an API key without $permission -> 403 insufficient_permissions',
    async (r) => {
      const res = await send(r, credential(r, 'api_key', { agent: lacking.get(r.permission) }));
      expectEnvelope(res, 403, 'insufficient_permissions');
      expect(res.body.error.required_permission).toBe(r.permission);
    },
  );

  const accepted = rows.flatMap((r) => r.accepted.map((scheme) => ({ ...r, scheme, kind: KIND[scheme] })));
  it.each(accepted)('$name: $kind gets past the guard', async (r) => {
    // Fresh actors: the handler really runs, and some change the caller (rotating the API key revokes the old one).
    const fresh: Actors = {
      agent: await createAgent(t),
      worker: await createWorker(t),
      admin: await createAdmin(t),
    };
    const res = await send(r, credential(r, r.scheme, fresh));
    const code = res.body?.error?.code as string | undefined;
    expect({ status: res.status, code }).not.toMatchObject({ status: 401 });
    expect(['forbidden', 'insufficient_permissions', 'account_disabled']).not.toContain(code);
  });
});
