import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'socket.io-client';
import { connectSocket, LiveSocket, ofName } from '../../scripts/bench/flood';
import { Authenticator } from '../../src/auth/authenticator';
import { createAgent, createWorker } from '../support/actors';
import { alignToMinuteStart } from '../support/agents';
import { createTestApp, TestApp } from '../support/app';
import { waitFor } from '../support/waiters';
import { insertTask, writeAssignmentEvent } from './events-helpers';

/** The socket limits of product-decisions §16, through socket.io clients of a real instance on one PostgreSQL. */

type Answer = { ok: true; room?: string } | { ok: false; error: { code: string; message: string } };

const open: LiveSocket[] = [];

async function listen(t: TestApp): Promise<string> {
  await t.app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${((t.app.getHttpServer() as Server).address() as AddressInfo).port}`;
}

async function connect(base: string, token: string): Promise<LiveSocket> {
  const c = await connectSocket(base, token);
  open.push(c);
  return c;
}

/**
 * Sends until the rate lets the message through, as a polite client does: a refused (or unanswered) message is sent
 * again 100 ms later, so the client never floods.
 */
async function sendPaced(socket: Socket, name: string, body: unknown): Promise<Answer> {
  for (;;) {
    if (socket.disconnected) throw new Error('the socket was disconnected');
    const answer = (await socket
      .timeout(2_000)
      .emitWithAck(name, body)
      .catch(() => null)) as Answer | null;
    if (answer && (answer.ok || answer.error.code !== 'rate_limited')) return answer;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Emits `count` copies at once and collects the acks as they come. */
function burst(socket: Socket, count: number, name: string, body: () => unknown): Answer[] {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i++) socket.emit(name, body(), (a: Answer) => answers.push(a));
  return answers;
}

const codes = (answers: Answer[]) => answers.map((a) => (a.ok ? 'ok' : a.error.code));

describe('socket limits (product-decisions §16)', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t);
  });
  afterAll(async () => {
    for (const c of open) c.socket.disconnect();
    await t.close();
  });

  /** Counts the ownership queries about one task while `run` runs. */
  async function ownershipQueries(taskId: string, run: () => Promise<void>): Promise<number> {
    const spy = jest.spyOn(t.db, 'query');
    try {
      await run();
      return spy.mock.calls.filter(
        ([sql, params]) =>
          /^\s*SELECT 1 FROM (tasks|assignments) WHERE/.test(sql) && (params as unknown[])[0] === taskId,
      ).length;
    } finally {
      spy.mockRestore();
    }
  }

  /** Subscribes `times` to a task the socket may not watch, each refused; returns the ownership queries it cost. */
  function refusedRepeatedly(socket: Socket, taskId: string, times: number): Promise<number> {
    return ownershipQueries(taskId, async () => {
      for (let i = 0; i < times; i++) {
        expect(await sendPaced(socket, 'subscribe', { task_id: taskId })).toMatchObject({
          ok: false,
          error: { code: 'task_not_found' },
        });
      }
    });
  }

  it.each([
    ['an agent', 'agent'],
    ['a worker', 'worker'],
  ] as const)(
    '%s’s socket: a burst past 40 is answered rate_limited in the ack shape, then the socket works as before',
    async (_who, kind) => {
      const token = kind === 'agent' ? (await createAgent(t)).apiKey : (await createWorker(t)).jwt;
      const c = await connect(base, token);
      const answers = burst(c.socket, 100, 'unsubscribe', () => ({ task_id: randomUUID() }));
      // 40 pass (the burst), 40 refusals are answered; the rest of the refusals go unanswered.
      await waitFor(() => answers.length >= 80, 'the answers of the burst');
      expect(codes(answers).filter((c) => c === 'ok').length).toBeGreaterThanOrEqual(40);
      expect(answers.find((a) => !a.ok)).toEqual({
        ok: false,
        error: { code: 'rate_limited', message: expect.stringContaining('20 messages a second') },
      });
      expect(new Set(codes(answers))).toEqual(new Set(['ok', 'rate_limited']));
      const taskId = randomUUID();
      expect(await sendPaced(c.socket, 'unsubscribe', { task_id: taskId })).toEqual({
        ok: true,
        room: `task:${taskId}`,
      });
      // Answered in order: everything of the burst that will ever be answered has been by now.
      expect(answers.length).toBeLessThan(100);
      expect(c.closed).toBeNull();
    },
  );

  it('unknown messages and malformed bodies get a clear answer (or none), never an exception; the socket carries on', async () => {
    const agent = await createAgent(t);
    const taskId = await insertTask(t, agent.id);
    const c = await connect(base, agent.apiKey);
    const ask = (name: string, ...args: unknown[]) => c.socket.emitWithAck(name, ...args) as Promise<Answer>;
    expect(await ask('nonsense', { task_id: taskId })).toEqual({
      ok: false,
      error: { code: 'unknown_event', message: expect.any(String) },
    });
    const malformed: unknown[] = [
      'garbage',
      null,
      42,
      true,
      [taskId],
      { task_id: 42 },
      { task_id: { $ne: null } },
      { task_id: `${taskId}'; DROP TABLE tasks; --` },
      { task_id: 'x'.repeat(10_000) },
      { nested: JSON.parse('['.repeat(500) + ']'.repeat(500)) as unknown },
    ];
    for (const body of malformed) {
      expect(await ask('subscribe', body)).toEqual({
        ok: false,
        error: { code: 'validation_error', message: 'Send {task_id: <uuid>}.' },
      });
    }
    expect(await ask('subscribe')).toMatchObject({ ok: false, error: { code: 'validation_error' } });
    // Names that mean something to an event emitter, and messages that want no answer.
    for (const name of ['error', '__proto__', 'constructor', 'hasOwnProperty', 'toString']) {
      c.socket.emit(name, { task_id: taskId });
    }
    c.socket.emit('subscribe', { task_id: 'not-a-uuid' });
    expect(await ask('subscribe', { task_id: taskId.toUpperCase() })).toEqual({
      ok: true,
      room: `task:${taskId}`,
    });
    expect(ofName(c, 'exception')).toEqual([]);
    expect(c.closed).toBeNull();
  });

  it('a packet socket.io cannot parse, or a message over 16 KiB, closes that connection only', async () => {
    const agent = await createAgent(t);
    const taskId = await insertTask(t, agent.id);
    const bystander = await connect(base, agent.apiKey);
    const garbled = await connect(base, agent.apiKey);
    garbled.socket.io.engine.send('2["subscribe", {unquoted: json');
    const big = await connect(base, agent.apiKey);
    big.socket.emit('subscribe', { task_id: taskId, padding: 'x'.repeat(17 * 1024) });
    await waitFor(() => garbled.closed !== null && big.closed !== null, 'both connections to be closed');
    expect([garbled.closed, big.closed]).toEqual(['transport close', 'transport close']);
    expect(await bystander.socket.emitWithAck('subscribe', { task_id: taskId })).toEqual({
      ok: true,
      room: `task:${taskId}`,
    });
    await t.http.get('/health').expect(200);
  });

  it('a repeated subscribe costs no query: an agent’s answers are remembered per socket, one check in flight serves a burst', async () => {
    const agent = await createAgent(t);
    const other = await createAgent(t);
    const mine = await insertTask(t, agent.id);
    const theirs = await insertTask(t, other.id);
    const c = await connect(base, agent.apiKey);
    const burstQueries = await ownershipQueries(mine, async () => {
      const answers = burst(c.socket, 20, 'subscribe', () => ({ task_id: mine }));
      await waitFor(() => answers.length === 20, 'the burst’s answers');
      expect(new Set(codes(answers))).toEqual(new Set(['ok']));
    });
    expect(burstQueries).toBe(1);
    const repeats = await ownershipQueries(mine, async () => {
      for (let i = 0; i < 10; i++) {
        expect(await sendPaced(c.socket, 'unsubscribe', { task_id: mine })).toMatchObject({ ok: true });
        expect(await sendPaced(c.socket, 'subscribe', { task_id: mine })).toMatchObject({ ok: true });
      }
    });
    expect(repeats).toBe(0);
    expect(await refusedRepeatedly(c.socket, theirs, 5)).toBe(1);
  });

  it('a worker’s refusal is remembered until the worker is told about the task (an offer), then it is asked again', async () => {
    const agent = await createAgent(t);
    const worker = await createWorker(t);
    const taskId = await insertTask(t, agent.id);
    const w = await connect(base, worker.jwt);
    expect(await refusedRepeatedly(w.socket, taskId, 3)).toBe(1);
    const [{ id: assignmentId }]: { id: string }[] = await t.db.query(
      `INSERT INTO assignments (task_id, worker_id, status, created_at, updated_at)
       VALUES ($1, $2, 'pending', now(), now()) RETURNING id`,
      [taskId, worker.id],
    );
    await writeAssignmentEvent(t, 'assignment.offered', worker.id, taskId, {
      assignment_id: assignmentId,
      status: 'pending',
    });
    await waitFor(() => ofName(w, 'assignment.offered').length === 1, 'the offer on the worker’s socket');
    expect(await sendPaced(w.socket, 'subscribe', { task_id: taskId })).toEqual({
      ok: true,
      room: `task:${taskId}`,
    });
  });

  it('a socket watches at most 200 tasks; past that a clear refusal, and leaving one makes room', async () => {
    const agent = await createAgent(t);
    const tasks: string[] = [];
    for (let i = 0; i < 201; i++) tasks.push(await insertTask(t, agent.id));
    const c = await connect(base, agent.apiKey);
    for (const taskId of tasks.slice(0, 200)) {
      expect(await sendPaced(c.socket, 'subscribe', { task_id: taskId })).toMatchObject({ ok: true });
    }
    expect(await sendPaced(c.socket, 'subscribe', { task_id: tasks[200] })).toEqual({
      ok: false,
      error: { code: 'too_many_subscriptions', message: expect.stringContaining('at most 200') },
    });
    // One already watched is still fine; after leaving one, the 201st fits.
    expect(await sendPaced(c.socket, 'subscribe', { task_id: tasks[0] })).toMatchObject({ ok: true });
    expect(await sendPaced(c.socket, 'unsubscribe', { task_id: tasks[0] })).toMatchObject({ ok: true });
    expect(await sendPaced(c.socket, 'subscribe', { task_id: tasks[200] })).toMatchObject({ ok: true });
  });
});

describe('handshakes per client IP (WS_HANDSHAKES_PER_MINUTE_PER_IP)', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ WS_HANDSHAKES_PER_MINUTE_PER_IP: '3' });
    base = await listen(t);
  });
  afterAll(async () => {
    for (const c of open) c.socket.disconnect();
    await t.close();
  });

  it('past the limit a handshake is refused with retry_after before its credential is looked at; the next minute it may connect', async () => {
    t.clock.hold();
    alignToMinuteStart(t.clock);
    const agent = await createAgent(t);
    const authenticate = jest.spyOn(t.app.get(Authenticator), 'authenticate');
    for (let i = 0; i < 3; i++) expect(ofName(await connect(base, agent.apiKey), 'ready')).toHaveLength(1);
    // A bad key, so that a credential check (had there been one) would say invalid_api_key instead.
    const refused = await connect(base, 'lw_test_0000000000000000000000000000000000000000');
    expect(ofName(refused, 'error')).toEqual([
      { code: 'rate_limited', message: expect.stringContaining('at most 3 a minute'), retry_after: 60 },
    ]);
    await waitFor(() => refused.closed, 'the refused socket to be disconnected');
    expect(refused.closed).toBe('io server disconnect');
    expect(authenticate).toHaveBeenCalledTimes(3);
    t.clock.advance(60_000);
    expect(ofName(await connect(base, agent.apiKey), 'ready')).toHaveLength(1);
    authenticate.mockRestore();
    t.clock.release();
  });
});
