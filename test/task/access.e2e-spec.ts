import { PERMISSIONS, Permission } from '../../src/common/actor';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { agentBalance } from '../support/balances';
import { expectError } from '../support/errors';
import { accept, createTask, SURFACES, taskBody } from '../support/tasks';

type Method = 'get' | 'post' | 'delete';
interface AgentRoute {
  method: Method;
  path: (taskId: string) => string;
  permission: Permission;
  body?: (t: TestApp) => Record<string, unknown>;
  /** Routes about one task answer 404 task_not_found for another agent's task. */
  perTask: boolean;
}

const feedbackBody = () => ({ accept_result: true, rating: 5, quality_score: 5 });

/** Every agent task route of the spec, both surfaces, with the permission it needs. */
const AGENT_ROUTES: AgentRoute[] = [
  {
    method: 'post',
    path: () => '/v1/tasks/create',
    permission: 'task:create',
    body: (t) => taskBody(t),
    perTask: false,
  },
  {
    method: 'post',
    path: () => '/api/v1/tasks',
    permission: 'task:create',
    body: (t) => taskBody(t),
    perTask: false,
  },
  ...['/v1/tasks/quote', '/api/v1/tasks/quote'].map((path) => ({
    method: 'post' as const,
    path: () => path,
    permission: 'task:create' as const,
    body: (t: TestApp) => taskBody(t),
    perTask: false,
  })),
  { method: 'get', path: () => '/v1/tasks', permission: 'task:read', perTask: false },
  { method: 'get', path: () => '/api/v1/tasks', permission: 'task:read', perTask: false },
  { method: 'get', path: (id) => `/v1/tasks/${id}`, permission: 'task:read', perTask: true },
  { method: 'get', path: (id) => `/api/v1/tasks/${id}`, permission: 'task:read', perTask: true },
  { method: 'get', path: (id) => `/v1/tasks/${id}/result`, permission: 'task:read', perTask: true },
  { method: 'get', path: (id) => `/api/v1/tasks/${id}/result`, permission: 'task:read', perTask: true },
  { method: 'post', path: (id) => `/v1/tasks/${id}/cancel`, permission: 'task:cancel', perTask: true },
  { method: 'delete', path: (id) => `/api/v1/tasks/${id}`, permission: 'task:cancel', perTask: true },
  {
    method: 'post',
    path: (id) => `/v1/tasks/${id}/feedback`,
    permission: 'task:create',
    body: feedbackBody,
    perTask: true,
  },
  {
    method: 'post',
    path: (id) => `/api/v1/tasks/${id}/feedback`,
    permission: 'task:create',
    body: feedbackBody,
    perTask: true,
  },
];

const WORKER_ROUTES: {
  method: Method;
  path: (taskId: string, assignmentId: string) => string;
  body?: object;
}[] = [
  { method: 'get', path: () => '/v1/worker/tasks/available' },
  { method: 'get', path: () => '/v1/worker/tasks/my-tasks' },
  { method: 'post', path: (task) => `/v1/worker/tasks/${task}/accept` },
  { method: 'get', path: (_t, a) => `/v1/worker/assignments/${a}` },
  { method: 'post', path: (_t, a) => `/v1/worker/assignments/${a}/start` },
  { method: 'post', path: (_t, a) => `/v1/worker/assignments/${a}/submit`, body: { result_data: {} } },
  { method: 'post', path: (_t, a) => `/v1/worker/assignments/${a}/abandon` },
];

describe('task access control', () => {
  let t: TestApp;
  let owner: TestAgent;
  let stranger: TestAgent;
  let worker: TestWorker;
  let taskId: string;
  let assignmentId: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAgent(t, { balanceCents: 10_000 });
    stranger = await createAgent(t, { balanceCents: 10_000 });
    worker = await createWorker(t);
    taskId = await createTask(t, owner, { max_workers: 2 });
    assignmentId = await accept(t, worker, taskId);
  });
  afterAll(() => t.close());

  function call(method: Method, path: string, auth: string | null, body?: object) {
    const req = t.http[method](path);
    if (auth) req.set('Authorization', auth);
    return body ? req.send(body) : req;
  }

  it('the route table is exactly the spec’s task routes', async () => {
    const doc = await t.http.get('/openapi.json').expect(200);
    const routes = Object.entries(doc.body.paths as Record<string, Record<string, unknown>>)
      .filter(([p]) => /^\/(api\/)?v1\/(tasks|worker\/tasks|worker\/assignments)/.test(p))
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(routes).toEqual(
      [
        'POST /v1/tasks/create',
        'POST /api/v1/tasks',
        'GET /v1/tasks',
        'GET /api/v1/tasks',
        'GET /v1/tasks/{task_id}',
        'GET /api/v1/tasks/{task_id}',
        'GET /v1/tasks/{task_id}/result',
        'GET /api/v1/tasks/{task_id}/result',
        'POST /v1/tasks/{task_id}/cancel',
        'DELETE /api/v1/tasks/{task_id}',
        'POST /v1/tasks/{task_id}/feedback',
        'POST /api/v1/tasks/{task_id}/feedback',
        // Beyond the spec: the price of a creation, without creating (task:create; test/task/quote.e2e-spec.ts).
        'POST /v1/tasks/quote',
        'POST /api/v1/tasks/quote',
        // Beyond the spec: the answers of the agent's tasks as a file (product-decisions §17; test/task/typed-answers).
        'GET /v1/tasks/answers/export',
        'GET /api/v1/tasks/answers/export',
        ...['/v1', '/api/v1'].flatMap((prefix) => [
          // Beyond the spec: messages per assignment (product-decisions §19; test/task/messages.e2e-spec.ts).
          `GET ${prefix}/tasks/{task_id}/messages`,
          `POST ${prefix}/tasks/{task_id}/messages`,
          `GET ${prefix}/worker/assignments/{assignment_id}/messages`,
          `POST ${prefix}/worker/assignments/{assignment_id}/messages`,
          // Beyond the spec: "could not do it" (product-decisions §19; test/task/unable.e2e-spec.ts).
          `POST ${prefix}/worker/assignments/{assignment_id}/unable`,
          // Beyond the spec: disputes of a rejection (product-decisions §19; test/task/disputes.e2e-spec.ts).
          `GET ${prefix}/tasks/{task_id}/disputes`,
          `POST ${prefix}/tasks/{task_id}/disputes/{dispute_id}/response`,
          `GET ${prefix}/worker/assignments/{assignment_id}/dispute`,
          `POST ${prefix}/worker/assignments/{assignment_id}/dispute`,
          // Beyond the spec: a worker's report of a task (§19, "Also"; test/task/task-reports.e2e-spec.ts).
          `POST ${prefix}/worker/tasks/{task_id}/report`,
          `GET ${prefix}/worker/tasks/available`,
          `GET ${prefix}/worker/tasks/my-tasks`,
          `GET ${prefix}/worker/assignments/{assignment_id}`,
          `POST ${prefix}/worker/tasks/{task_id}/accept`,
          `POST ${prefix}/worker/assignments/{assignment_id}/start`,
          `POST ${prefix}/worker/assignments/{assignment_id}/submit`,
          `POST ${prefix}/worker/assignments/{assignment_id}/abandon`,
          `POST ${prefix}/worker/assignments/{assignment_id}/decline`,
          `POST ${prefix}/worker/assignments/{assignment_id}/submit-with-photo`,
          `POST ${prefix}/worker/tasks/{task_id}/rate`,
        ]),
      ].sort(),
    );
  });

  it.each(AGENT_ROUTES.filter((r) => r.perTask))(
    'another agent’s task is 404 task_not_found: $method',
    async (route) => {
      for (const auth of [stranger.key, stranger.bearer]) {
        const res = await call(route.method, route.path(taskId), auth, route.body?.(t));
        expectError(res, 404, 'task_not_found');
      }
    },
  );

  it('another agent’s task does not appear in their list, and a missing task is 404 too', async () => {
    const list = await t.http.get('/v1/tasks').set('Authorization', stranger.key).expect(200);
    expect(list.body.data.map((x: { task_id: string }) => x.task_id)).not.toContain(taskId);
    expectError(
      await t.http.get('/v1/tasks/00000000-0000-4000-8000-000000000000').set('Authorization', owner.key),
      404,
      'task_not_found',
    );
  });

  it.each(AGENT_ROUTES)('a worker token on an agent route is 403 forbidden: $method', async (route) => {
    const res = await call(route.method, route.path(taskId), worker.bearer, route.body?.(t));
    expectError(res, 403, 'forbidden');
  });

  it.each(AGENT_ROUTES)('no credential is 401 authentication_required: $method', async (route) => {
    expectError(
      await call(route.method, route.path(taskId), null, route.body?.(t)),
      401,
      'authentication_required',
    );
  });

  it.each(AGENT_ROUTES)('a key without $permission gets 403 insufficient_permissions', async (route) => {
    const limited = await createAgent(t, {
      balanceCents: 10_000,
      permissions: PERMISSIONS.filter((p) => p !== route.permission),
    });
    // The agent's own task, created in its console session (a JWT holds every permission).
    const own = (
      await SURFACES.v1.create(t).set('Authorization', limited.bearer).send(taskBody(t)).expect(201)
    ).body.task_id as string;
    const res = await call(route.method, route.path(own), limited.key, route.body?.(t));
    expectError(res, 403, 'insufficient_permissions');
    expect(res.body.error.required_permission).toBe(route.permission);
    expect(await agentBalance(t, limited.id)).toBe(5000);
    await SURFACES.v1.cancel(t, own).set('Authorization', limited.bearer).expect(200);
  });

  it.each(WORKER_ROUTES)('an agent credential on a worker route is 403 forbidden: $method', async (route) => {
    for (const auth of [owner.key, owner.bearer]) {
      const res = await call(route.method, route.path(taskId, assignmentId), auth, route.body);
      expectError(res, 403, 'forbidden');
    }
  });

  it.each(WORKER_ROUTES.slice(3))(
    'another worker’s assignment is 404 assignment_not_found: $method',
    async (route) => {
      const other = await createWorker(t);
      expectError(
        await call(route.method, route.path(taskId, assignmentId), other.bearer, route.body),
        404,
        'assignment_not_found',
      );
      const [{ status }]: { status: string }[] = await t.db.query(
        `SELECT status FROM assignments WHERE id = $1`,
        [assignmentId],
      );
      expect(status).toBe('accepted');
    },
  );

  it('accepting a task that does not exist is 404 task_not_found', async () => {
    const res = await t.http
      .post('/v1/worker/tasks/00000000-0000-4000-8000-000000000000/accept')
      .set('Authorization', worker.bearer);
    expectError(res, 404, 'task_not_found');
  });

  describe('max_concurrent_tasks', () => {
    it('over the limit is 429 concurrent_task_limit, nothing charged; finishing a task frees a place', async () => {
      const agent = await createAgent(t, { balanceCents: 20_000 });
      await t.db.query(`UPDATE agents SET max_concurrent_tasks = 2 WHERE id = $1`, [agent.id]);
      const first = await createTask(t, agent);
      await createTask(t, agent, {}, SURFACES.api);
      const res = await SURFACES.v1.create(t).set('Authorization', agent.key).send(taskBody(t));
      expectError(res, 429, 'concurrent_task_limit');
      expect(res.body.error).toMatchObject({ max_concurrent_tasks: 2, active_tasks: 2 });
      expect(await agentBalance(t, agent.id)).toBe(10_000);
      await SURFACES.v1.cancel(t, first).set('Authorization', agent.key).expect(200);
      await createTask(t, agent);
    });

    it('is race-free: 10 creations at once with room for 3 create exactly 3', async () => {
      const agent = await createAgent(t, { balanceCents: 100_000 });
      await t.db.query(`UPDATE agents SET max_concurrent_tasks = 3 WHERE id = $1`, [agent.id]);
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          SURFACES.api.create(t).set('Authorization', agent.key).send(taskBody(t)),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(3);
      for (const r of results.filter((x) => x.status !== 201)) expectError(r, 429, 'concurrent_task_limit');
      expect(await agentBalance(t, agent.id)).toBe(85_000);
    });
  });
});
