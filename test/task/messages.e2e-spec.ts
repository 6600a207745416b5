import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { io, Socket } from 'socket.io-client';
import { createTestApp, TestApp } from '../support/app';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createAdmin } from '../support/admins';
import { accept, createTask } from '../support/tasks';
import { waitFor } from '../support/waiters';
import { pump, registerWebhook, signatureValid, startReceiver } from '../events/events-helpers';

/** Small, so the limit is reached in a few requests; each test uses its own agent and workers. */
const MESSAGE_LIMIT = 5;

interface Client {
  socket: Socket;
  messages: [string, unknown][];
}
const sockets: Socket[] = [];

async function connect(base: string, token: string): Promise<Client> {
  const socket = io(base, { path: '/ws', auth: { token }, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  const messages: [string, unknown][] = [];
  socket.onAny((name: string, payload: unknown) => messages.push([name, payload]));
  await waitFor(() => messages.some(([n]) => n === 'ready'), 'ready', 5000);
  return { socket, messages };
}
const heard = (c: Client, name: string) => c.messages.filter(([n]) => n === name).map(([, p]) => p);

describe('messages between the agent and the worker of an assignment (product-decisions §19)', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    // The outbox is pumped by hand, so each step's deliveries are known when the test looks.
    t = await createTestApp({
      JOBS_IN_PROCESS: 'false',
      MESSAGE_RATE_LIMIT_PER_MINUTE: String(MESSAGE_LIMIT),
    });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${((t.app.getHttpServer() as Server).address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
  });

  async function setUp(): Promise<{
    agent: TestAgent;
    worker: TestWorker;
    taskId: string;
    assignmentId: string;
  }> {
    const agent = await createAgent(t, { balanceCents: 50_000 });
    const worker = await createWorker(t);
    const taskId = await createTask(t, agent, { max_workers: 2 });
    const assignmentId = await accept(t, worker, taskId);
    return { agent, worker, taskId, assignmentId };
  }

  const workerSend = (w: TestWorker, assignmentId: string, body: object) =>
    t.http.post(`/v1/worker/assignments/${assignmentId}/messages`).set('Authorization', w.bearer).send(body);
  const agentSend = (a: TestAgent, taskId: string, body: object, prefix = '/v1') =>
    t.http.post(`${prefix}/tasks/${taskId}/messages`).set('Authorization', a.key).send(body);

  it('both ways: a signed webhook and the agent’s socket, the worker’s socket, never the task’s other worker', async () => {
    const { agent, worker, taskId, assignmentId } = await setUp();
    const other = await createWorker(t);
    await accept(t, other, taskId);
    const rx = await startReceiver();
    const { secret } = await registerWebhook(t, agent, rx.url, ['message.created']);
    const agentSocket = await connect(base, agent.apiKey);
    const workerSocket = await connect(base, worker.jwt);
    const otherSocket = await connect(base, other.jwt);
    // The other worker watches the task's room, as a worker holding it may: messages must not reach it there.
    expect(await otherSocket.socket.emitWithAck('subscribe', { task_id: taskId })).toEqual({
      ok: true,
      room: `task:${taskId}`,
    });
    await pump(t);

    const asked = await workerSend(worker, assignmentId, {
      body: 'Is the entrance on the north side?',
    }).expect(201);
    expect(asked.body).toEqual({
      message_id: expect.any(String),
      assignment_id: assignmentId,
      from: 'worker',
      body: 'Is the entrance on the north side?',
      created_at: expect.any(String),
    });
    const answered = await agentSend(
      agent,
      taskId,
      { assignment_id: assignmentId, body: 'Yes, next to the pharmacy.' },
      '/api/v1',
    ).expect(201);
    expect(answered.body.from).toBe('agent');
    await pump(t);
    await rx.close();

    const stored: { id: string; data: Record<string, unknown> }[] = await t.db.query(
      `SELECT id, data FROM events WHERE name = 'message.created' AND task_id = $1 ORDER BY seq`,
      [taskId],
    );
    expect(stored.map((e) => e.data.message_id)).toEqual([asked.body.message_id, answered.body.message_id]);
    // Webhooks: both messages, signed over the raw body, in the task-level envelope.
    expect(rx.received).toHaveLength(2);
    for (const [i, r] of rx.received.entries()) {
      expect(signatureValid(secret, r.raw, r.headers['x-signature'])).toBe(true);
      expect(r.json).toEqual({
        event: 'message.created',
        event_id: stored[i].id,
        task_id: taskId,
        timestamp: expect.any(String),
        data: { ...(i === 0 ? asked.body : answered.body), task_id: taskId },
      });
    }
    await waitFor(() => heard(agentSocket, 'message.created').length === 2, 'agent socket', 5000);
    await waitFor(() => heard(workerSocket, 'message.created').length === 2, 'worker socket', 5000);
    expect(heard(workerSocket, 'message.created')).toEqual(rx.received.map((r) => r.json));
    expect(heard(agentSocket, 'message.created')).toEqual(rx.received.map((r) => r.json));
    // Give a stray emit time to arrive before asserting that none did.
    await new Promise((r) => setTimeout(r, 200));
    expect(heard(otherSocket, 'message.created')).toEqual([]);
  });

  it('threads and unread counts on each side; reading a thread marks it read', async () => {
    const { agent, worker, taskId, assignmentId } = await setUp();
    await workerSend(worker, assignmentId, { body: 'First question' }).expect(201);
    await workerSend(worker, assignmentId, { body: 'Second question' }).expect(201);

    const list = await t.http.get(`/v1/tasks/${taskId}/messages`).set('Authorization', agent.key).expect(200);
    expect(list.body).toEqual({
      threads: [
        {
          assignment_id: assignmentId,
          worker_id: worker.id,
          assignment_status: 'accepted',
          message_count: 2,
          unread_count: 2,
          last_message: expect.objectContaining({ body: 'Second question', from: 'worker' }),
        },
      ],
    });
    const one = await t.http
      .get(`/api/v1/tasks/${taskId}/messages?assignment_id=${assignmentId}`)
      .set('Authorization', agent.key)
      .expect(200);
    expect(one.body.messages.map((m: { body: string }) => m.body)).toEqual([
      'First question',
      'Second question',
    ]);
    const after = await t.http
      .get(`/v1/tasks/${taskId}/messages`)
      .set('Authorization', agent.key)
      .expect(200);
    expect(after.body.threads[0].unread_count).toBe(0);

    // The worker's own messages are not unread for them; the agent's reply is, until read.
    await agentSend(agent, taskId, { assignment_id: assignmentId, body: 'Answer' }).expect(201);
    const mine = await t.http.get('/v1/worker/messages').set('Authorization', worker.bearer).expect(200);
    expect(mine.body).toEqual({
      threads: [
        {
          assignment_id: assignmentId,
          task_id: taskId,
          message_count: 3,
          unread_count: 1,
          last_message_at: expect.any(String),
        },
      ],
      unread_total: 1,
    });
    const thread = await t.http
      .get(`/v1/worker/assignments/${assignmentId}/messages`)
      .set('Authorization', worker.bearer)
      .expect(200);
    expect(thread.body.messages.map((m: { from: string }) => m.from)).toEqual(['worker', 'worker', 'agent']);
    const read = await t.http.get('/v1/worker/messages').set('Authorization', worker.bearer).expect(200);
    expect(read.body.unread_total).toBe(0);
  });

  it('limits: 2,000 characters, not empty, unknown fields refused, and a per-minute budget of its own', async () => {
    const { agent, worker, taskId, assignmentId } = await setUp();
    const tooLong = await workerSend(worker, assignmentId, { body: 'x'.repeat(2001) }).expect(400);
    expect(tooLong.body.error.code).toBe('validation_error');
    await workerSend(worker, assignmentId, { body: '   ' }).expect(400);
    await workerSend(worker, assignmentId, { body: 'hi', extra: 1 }).expect(400);
    await agentSend(agent, taskId, { body: 'no thread named' }).expect(400);
    await agentSend(agent, taskId, { assignment_id: 'nope', body: 'x' }).expect(400);
    const [{ n: before }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM assignment_messages WHERE assignment_id = $1`,
      [assignmentId],
    );
    expect(before).toBe(0);

    // The refused requests above counted against the budget too (as every request does): use a fresh worker.
    const fresh = await setUp();
    await workerSend(fresh.worker, fresh.assignmentId, { body: 'y'.repeat(2000) }).expect(201);
    for (let i = 1; i < MESSAGE_LIMIT; i++)
      await workerSend(fresh.worker, fresh.assignmentId, { body: `n${i}` }).expect(201);
    const limited = await workerSend(fresh.worker, fresh.assignmentId, { body: 'one too many' }).expect(429);
    expect(limited.body.error.code).toBe('rate_limit_exceeded');
    expect(limited.headers['retry-after']).toBeDefined();
    // The agent's budget is its own.
    for (let i = 0; i < MESSAGE_LIMIT; i++)
      await agentSend(fresh.agent, fresh.taskId, { assignment_id: fresh.assignmentId, body: `a${i}` }).expect(
        201,
      );
    await agentSend(fresh.agent, fresh.taskId, { assignment_id: fresh.assignmentId, body: 'over' }).expect(
      429,
    );
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM assignment_messages WHERE assignment_id = $1`,
      [fresh.assignmentId],
    );
    expect(n).toBe(2 * MESSAGE_LIMIT);
  });

  it('a phone number or a WeChat ID is delivered and flagged for operators', async () => {
    const { agent, worker, taskId, assignmentId } = await setUp();
    const phone = await workerSend(worker, assignmentId, { body: 'call me: 138 0013 8000' }).expect(201);
    const wechat = await agentSend(agent, taskId, {
      assignment_id: assignmentId,
      body: '加我微信 shop_owner88',
    }).expect(201);
    const plain = await workerSend(worker, assignmentId, { body: 'On my way.' }).expect(201);
    const admin = await createAdmin(t);
    const res = await t.http.get('/v1/admin/flagged-messages').set('Authorization', admin.bearer).expect(200);
    const ours = (res.body.messages as { message_id: string; assignment_id: string }[]).filter(
      (m) => m.assignment_id === assignmentId,
    );
    expect(ours).toEqual([
      {
        ...wechat.body,
        task_id: taskId,
        agent_id: agent.id,
        worker_id: worker.id,
        flags: ['wechat_id'],
      },
      {
        ...phone.body,
        task_id: taskId,
        agent_id: agent.id,
        worker_id: worker.id,
        flags: ['phone_number'],
      },
    ]);
    expect(ours.map((m) => m.message_id)).not.toContain(plain.body.message_id);
    // Not an operator's list for anyone else.
    await t.http.get('/v1/admin/flagged-messages').set('Authorization', agent.bearer).expect(403);
    await t.http.get('/v1/admin/flagged-messages').set('Authorization', worker.bearer).expect(403);
  });

  it('permissions: another agent or worker gets 404; an offer not accepted has no thread', async () => {
    const { agent, worker, taskId, assignmentId } = await setUp();
    const stranger = await createAgent(t);
    const otherWorker = await createWorker(t);

    const a1 = await t.http
      .get(`/v1/tasks/${taskId}/messages`)
      .set('Authorization', stranger.key)
      .expect(404);
    expect(a1.body.error.code).toBe('task_not_found');
    const a2 = await agentSend(stranger, taskId, { assignment_id: assignmentId, body: 'hello' }).expect(404);
    expect(a2.body.error.code).toBe('task_not_found');
    const w1 = await t.http
      .get(`/v1/worker/assignments/${assignmentId}/messages`)
      .set('Authorization', otherWorker.bearer)
      .expect(404);
    expect(w1.body.error.code).toBe('assignment_not_found');
    const w2 = await workerSend(otherWorker, assignmentId, { body: 'hello' }).expect(404);
    expect(w2.body.error.code).toBe('assignment_not_found');
    // An assignment of another task of the same agent is not a thread of this one.
    const otherTask = await createTask(t, agent);
    const elsewhere = await accept(t, otherWorker, otherTask);
    const a3 = await agentSend(agent, taskId, { assignment_id: elsewhere, body: 'hello' }).expect(404);
    expect(a3.body.error.code).toBe('assignment_not_found');
    const a4 = await t.http
      .get(`/v1/tasks/${taskId}/messages?assignment_id=${elsewhere}`)
      .set('Authorization', agent.key)
      .expect(404);
    expect(a4.body.error.code).toBe('assignment_not_found');

    // A pending offer (its worker still a pseudonym to the agent) has no thread yet.
    const [{ id: offer }]: { id: string }[] = await t.db.query(
      `INSERT INTO assignments (task_id, worker_id, status, offered_at, offer_expires_at, created_at, updated_at,
                                task_deadline_at)
       SELECT id, $2, 'pending', $3, $3::timestamptz + interval '5 minutes', $3, $3, deadline_at FROM tasks WHERE id = $1
       RETURNING id`,
      [taskId, otherWorker.id, t.clock.now()],
    );
    const pending = await agentSend(agent, taskId, { assignment_id: offer, body: 'hello' }).expect(409);
    expect(pending.body.error).toMatchObject({ code: 'invalid_state', assignment_status: 'pending' });
    await workerSend(otherWorker, offer, { body: 'hello' }).expect(409);
    // A read-only key cannot write.
    const reader = await createAgent(t, { permissions: ['task:read'] });
    const readerTask = await createTask(t, agent);
    await agentSend(reader, readerTask, { assignment_id: assignmentId, body: 'x' }).expect(403);
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM assignment_messages WHERE task_id = ANY($1::uuid[])`,
      [[taskId, otherTask]],
    );
    expect(n).toBe(0);
    expect(worker.id).toBeDefined();
  });
});
