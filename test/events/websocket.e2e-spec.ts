import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { io, Socket } from 'socket.io-client';
import { inTransaction } from '../../src/database/transaction';
import { createTestApp, TestApp } from '../support/app';
import { createAgent, createWorker } from '../support/actors';
import { accept, act, createTask, feedback, submit } from '../support/tasks';
import { waitFor } from '../support/waiters';
import { insertTask, writeAssignmentEvent, writeTaskEvent } from './events-helpers';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

async function listen(t: TestApp): Promise<string> {
  await t.app.listen(0, '127.0.0.1');
  const port = ((t.app.getHttpServer() as Server).address() as AddressInfo).port;
  return `http://127.0.0.1:${port}`;
}

interface Client {
  socket: Socket;
  /** Every server message received, in order, as [name, payload]. */
  messages: [string, unknown][];
}

const clients: Socket[] = [];

/** Connects and resolves once the server said `ready` (or `error`). */
async function connect(base: string, token: string | undefined): Promise<Client> {
  const socket = io(base, {
    path: '/ws',
    auth: token === undefined ? {} : { token },
    transports: ['websocket'],
    reconnection: false,
  });
  clients.push(socket);
  const messages: [string, unknown][] = [];
  socket.onAny((name: string, payload: unknown) => messages.push([name, payload]));
  await waitFor(() => messages.some(([n]) => n === 'ready' || n === 'error'), 'ready or error', 5000);
  return { socket, messages };
}

const ofName = (c: Client, name: string) => c.messages.filter(([n]) => n === name).map(([, p]) => p);

describe('socket.io gateway on /ws across two instances sharing PostgreSQL and Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let urlA: string;
  let urlB: string;
  const env = { REDIS_URL, REDIS_KEY_PREFIX: `lwtest-${randomUUID()}` };

  beforeAll(async () => {
    // A runs the outbox publisher in process; B runs none, so B's clients can only hear of events through Redis.
    a = await createTestApp({ ...env, INSTANCE_ID: 'instance-a' });
    b = await createTestApp(
      { ...env, INSTANCE_ID: 'instance-b', JOBS_IN_PROCESS: 'false' },
      { databaseName: a.databaseName },
    );
    urlA = await listen(a);
    urlB = await listen(b);
  });
  afterAll(async () => {
    for (const s of clients) s.disconnect();
    await b.close();
    await a.close();
  });

  it('a client on instance B receives the event of a task changed through instance A, with the webhook payload', async () => {
    const agent = await createAgent(a, { balanceCents: 10_000 });
    const worker = await createWorker(a);
    const taskId = await createTask(a, agent);
    const c = await connect(urlB, agent.apiKey);
    expect(ofName(c, 'ready')).toEqual([{ kind: 'agent', id: agent.id, rooms: [`agent:${agent.id}`] }]);
    const ack: unknown = await c.socket.emitWithAck('subscribe', { task_id: taskId });
    expect(ack).toEqual({ ok: true, room: `task:${taskId}` });

    await accept(a, worker, taskId); // through instance A's HTTP API
    await waitFor(() => ofName(c, 'task.assigned').length > 0, 'task.assigned on B', 5000);
    const [stored]: { id: string; created_at: Date }[] = await a.db.query(
      `SELECT id, created_at FROM events WHERE task_id = $1 AND name = 'task.assigned'`,
      [taskId],
    );
    expect(ofName(c, 'task.assigned')).toEqual([
      {
        event: 'task.assigned',
        event_id: stored.id,
        task_id: taskId,
        timestamp: stored.created_at.toISOString(),
        data: { task_id: taskId, status: 'assigned', previous_status: 'pending' },
      },
    ]);
    // In both the agent room and the task room, yet delivered once.
    await new Promise((r) => setTimeout(r, 300));
    expect(ofName(c, 'task.assigned')).toHaveLength(1);
  });

  it('emits only after the transaction commits', async () => {
    const agent = await createAgent(a);
    const taskId = await insertTask(a, agent.id);
    const c = await connect(urlB, agent.jwt);
    let commit!: () => void;
    const committed = new Promise<void>((r) => (commit = r));
    const tx = inTransaction(a.db, async (em) => {
      await em.query(
        `INSERT INTO events (name, agent_id, task_id, data, created_at) VALUES ('task.started', $1, $2, '{}', $3)`,
        [agent.id, taskId, a.clock.now()],
      );
      await committed;
    });
    await new Promise((r) => setTimeout(r, 1500)); // longer than the publisher's polling interval
    expect(ofName(c, 'task.started')).toEqual([]);
    commit();
    await tx;
    await waitFor(() => ofName(c, 'task.started').length === 1, 'task.started after commit', 5000);
  });

  it('workers get their own assignment events in worker:{id}; agents do not', async () => {
    const agent = await createAgent(a);
    const worker = await createWorker(a);
    const taskId = await insertTask(a, agent.id);
    const w = await connect(urlB, worker.jwt);
    const ag = await connect(urlA, agent.jwt);
    expect(ofName(w, 'ready')).toEqual([{ kind: 'worker', id: worker.id, rooms: [`worker:${worker.id}`] }]);
    await ag.socket.emitWithAck('subscribe', { task_id: taskId });
    const eventId = await writeAssignmentEvent(a, 'assignment.accepted', worker.id, taskId, {
      status: 'accepted',
    });
    await waitFor(
      () => ofName(w, 'assignment.accepted').length === 1,
      'assignment.accepted for the worker',
      5000,
    );
    expect(ofName(w, 'assignment.accepted')[0]).toMatchObject({
      event: 'assignment.accepted',
      event_id: eventId,
      task_id: taskId,
    });
    await writeTaskEvent(a, 'task.assigned', agent.id, taskId, {});
    await waitFor(() => ofName(ag, 'task.assigned').length === 1, 'task.assigned for the agent', 5000);
    expect(ofName(ag, 'assignment.accepted')).toEqual([]);
  });

  it('an agent cannot subscribe to another agent’s task (or a malformed one)', async () => {
    const owner = await createAgent(a);
    const intruder = await createAgent(a);
    const taskId = await insertTask(a, owner.id);
    const c = await connect(urlB, intruder.apiKey);
    expect(await c.socket.emitWithAck('subscribe', { task_id: taskId })).toEqual({
      ok: false,
      error: { code: 'task_not_found', message: 'Task not found.' },
    });
    expect(await c.socket.emitWithAck('subscribe', { task_id: randomUUID() })).toMatchObject({
      ok: false,
      error: { code: 'task_not_found' },
    });
    expect(await c.socket.emitWithAck('subscribe', { task: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'validation_error' },
    });
    // The owner's event never reaches the intruder.
    const owned = await connect(urlB, owner.apiKey);
    await owned.socket.emitWithAck('subscribe', { task_id: taskId });
    await writeTaskEvent(a, 'task.cancelled', owner.id, taskId, {});
    await waitFor(() => ofName(owned, 'task.cancelled').length === 1, 'task.cancelled for the owner', 5000);
    expect(ofName(c, 'task.cancelled')).toEqual([]);
  });

  it('a worker may watch only tasks it holds an assignment on', async () => {
    const agent = await createAgent(a);
    const worker = await createWorker(a);
    const mine = await insertTask(a, agent.id);
    const other = await insertTask(a, agent.id);
    await a.db.query(
      `INSERT INTO assignments (task_id, worker_id, status, created_at, updated_at) VALUES ($1, $2, 'accepted', now(), now())`,
      [mine, worker.id],
    );
    const w = await connect(urlA, worker.jwt);
    expect(await w.socket.emitWithAck('subscribe', { task_id: mine })).toEqual({
      ok: true,
      room: `task:${mine}`,
    });
    expect(await w.socket.emitWithAck('subscribe', { task_id: other })).toMatchObject({
      ok: false,
      error: { code: 'task_not_found' },
    });
    expect(await w.socket.emitWithAck('unsubscribe', { task_id: mine })).toEqual({
      ok: true,
      room: `task:${mine}`,
    });
  });

  it.each(['abandoned', 'rejected'] as const)(
    'a worker whose assignment ends (%s) leaves the task room and may not join it again',
    async (ending) => {
      const agent = await createAgent(a, { balanceCents: 10_000 });
      const worker = await createWorker(a);
      const taskId = await createTask(a, agent);
      const assignmentId = await accept(a, worker, taskId);
      // The worker watches from instance B, the agent from A: the rooms are shared through Redis.
      const w = await connect(urlB, worker.jwt);
      expect(await w.socket.emitWithAck('subscribe', { task_id: taskId })).toEqual({
        ok: true,
        room: `task:${taskId}`,
      });
      const ag = await connect(urlA, agent.apiKey);
      await ag.socket.emitWithAck('subscribe', { task_id: taskId });

      if (ending === 'abandoned') {
        await act(a, worker, assignmentId, 'abandon').expect(200);
      } else {
        await act(a, worker, assignmentId, 'start').expect(200);
        await submit(a, worker, assignmentId).expect(200);
        await feedback(a, agent, taskId, { accept_result: false, reason_code: 'other' }).expect(200);
      }
      await waitFor(() => ofName(w, `assignment.${ending}`).length > 0, `assignment.${ending}`);
      // The task's next event: the agent hears it, the worker must not.
      await writeTaskEvent(a, 'task.started', agent.id, taskId, { marker: true });
      const marked = (c: Client) =>
        ofName(c, 'task.started').filter((p) => (p as { data: { marker?: boolean } }).data.marker);
      await waitFor(() => marked(ag).length === 1, 'the marked task.started for the agent');
      // Anything already on its way to B arrives within the time B's copy of the same emit takes.
      await new Promise((r) => setTimeout(r, 300));
      expect(marked(w)).toEqual([]);
      expect(await w.socket.emitWithAck('subscribe', { task_id: taskId })).toMatchObject({
        ok: false,
        error: { code: 'task_not_found' },
      });
    },
  );

  it.each([
    ['no token', undefined, 'authentication_required'],
    ['an unknown API key', 'lw_test_0000000000000000000000000000000000000000', 'invalid_api_key'],
    ['a garbage JWT', 'eyJhbGciOiJIUzI1NiJ9.e30.bad', 'invalid_token'],
  ])('disconnects a client with %s after an error message', async (_what, token, code) => {
    const c = await connect(urlB, token);
    expect(ofName(c, 'error')).toEqual([{ code, message: expect.any(String) }]);
    const reason = await new Promise<string>((resolve) => {
      if (c.socket.disconnected) resolve('io server disconnect');
      c.socket.on('disconnect', (r) => resolve(r));
    });
    expect(reason).toBe('io server disconnect');
    expect(ofName(c, 'ready')).toEqual([]);
  });

  it('GET /v1/ws/stats (public) counts connections by kind and instance across instances', async () => {
    const agent = await createAgent(a);
    const worker = await createWorker(a);
    const before = (await a.http.get('/v1/ws/stats').expect(200)).body as { by_kind: Record<string, number> };
    const c1 = await connect(urlB, agent.apiKey);
    const c2 = await connect(urlB, worker.jwt);
    const c3 = await connect(urlA, agent.jwt);
    const stats = await waitFor(
      async () => {
        const s = (await a.http.get('/v1/ws/stats').expect(200)).body as {
          by_kind: Record<string, number>;
          instances: { instance_id: string; connections: number }[];
        };
        return s.by_kind.agent === before.by_kind.agent + 2 && s.by_kind.worker === before.by_kind.worker + 1
          ? s
          : null;
      },
      'stats to include the new sockets',
      5000,
    );
    expect(stats).toMatchObject({ instance_id: 'instance-a', scope: 'cluster' });
    expect(stats.instances.map((i) => i.instance_id)).toEqual(['instance-a', 'instance-b']);
    const fromB = (await b.http.get('/v1/ws/stats').expect(200)).body as { total_connections: number };
    expect(fromB.total_connections).toBeGreaterThanOrEqual(3);
    for (const c of [c1, c2, c3]) c.socket.disconnect();
    await waitFor(
      async () => {
        const s = (await a.http.get('/v1/ws/stats').expect(200)).body as { by_kind: Record<string, number> };
        return s.by_kind.agent === before.by_kind.agent && s.by_kind.worker === before.by_kind.worker;
      },
      'stats to drop the closed sockets',
      5000,
    );
  });

  it('rate limits hold across instances: the 6th request over a 5/min limit split across A and B is 429', async () => {
    // Both clocks to the start of the same fixed window, so the test cannot straddle a minute boundary.
    const now = a.clock.now().getTime();
    const shift = 60_000 - (now % 60_000) + 1000;
    a.clock.advance(shift);
    b.clock.advance(a.clock.now().getTime() - b.clock.now().getTime());
    expect(Math.abs(a.clock.now().getTime() - b.clock.now().getTime())).toBeLessThan(50);
    const agent = await createAgent(a, { rateLimitPerMinute: 5 });
    const statuses: number[] = [];
    for (const app of [a, b, a, b, a]) {
      statuses.push((await app.http.get('/v1/agent/webhooks').set('Authorization', agent.bearer)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const sixth = await b.http.get('/v1/agent/webhooks').set('Authorization', agent.bearer).expect(429);
    expect(sixth.body.error.code).toBe('rate_limit_exceeded');
    expect(sixth.headers['retry-after']).toBeDefined();
    await a.http.get('/v1/agent/webhooks').set('Authorization', agent.bearer).expect(429);
  });
});

describe('when Redis is unreachable', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({
      REDIS_URL: 'redis://127.0.0.1:1/0',
      REDIS_KEY_PREFIX: `lwtest-${randomUUID()}`,
    });
    url = await listen(t);
  });
  afterAll(async () => {
    for (const s of clients) s.disconnect();
    await t.close();
  });

  it('the instance keeps serving: local sockets still get events, stats cover this instance', async () => {
    const agent = await createAgent(t);
    const taskId = await insertTask(t, agent.id);
    const c = await connect(url, agent.apiKey);
    await c.socket.emitWithAck('subscribe', { task_id: taskId });
    await writeTaskEvent(t, 'task.assigned', agent.id, taskId, {});
    await waitFor(() => ofName(c, 'task.assigned').length === 1, 'local delivery without Redis', 5000);
    const stats = await t.http.get('/v1/ws/stats').expect(200);
    expect(stats.body).toMatchObject({ scope: 'instance', total_connections: 1 });
    await t.http.get('/v1/agent/webhooks').set('Authorization', agent.bearer).expect(200);
  });
});
