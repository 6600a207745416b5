import { accessToken, createWorkers } from '../../scripts/bench/fixtures';
import { connectSocket, flood, LiveSocket, ofName } from '../../scripts/bench/flood';
import type { BenchAgent } from '../../scripts/bench/fixtures';
import { waitFor } from '../support/waiters';
import { create, ProcessRig, send, startProcessRig, taskBody } from './process-support';

/**
 * One hostile socket against the compiled API (`npm run build`), as `npm start` runs it (its heap budget included).
 * Before the socket limits of product-decisions §16, one authenticated socket sending 30,000 `subscribe` messages
 * ran the process out of memory in about 4 s: a database query per message, nothing refused. The process here runs
 * its own jobs (the outbox publisher), so the events other clients wait for are emitted by the process under flood.
 */
describe('fault: one hostile socket', () => {
  let rig: ProcessRig;
  const open: LiveSocket[] = [];

  beforeAll(async () => {
    rig = await startProcessRig(3, { JOBS_IN_PROCESS: 'true' });
  }, 120_000);

  afterAll(async () => {
    for (const c of open) c.socket.disconnect();
    await rig?.close();
  }, 60_000);

  async function connect(token: string): Promise<LiveSocket> {
    const c = await connectSocket(rig.server.baseUrl, token);
    open.push(c);
    return c;
  }

  async function newTask(agent: BenchAgent): Promise<string> {
    const answer = await create(rig.server, { agent, key: `flood-${Math.random()}`, body: taskBody() });
    expect(answer.status).toBe(201);
    return answer.body.task_id as string;
  }

  async function cancel(agent: BenchAgent, taskId: string): Promise<void> {
    const auth = { authorization: `Bearer ${agent.apiKey}` };
    const answer = await send(rig.server, `/v1/tasks/${taskId}/cancel`, auth, `cancel-${taskId}`, {});
    expect(answer.status).toBe(200);
  }

  async function watching(agent: BenchAgent, taskId: string): Promise<LiveSocket> {
    const c = await connect(agent.apiKey);
    expect(await c.socket.emitWithAck('subscribe', { task_id: taskId })).toEqual({
      ok: true,
      room: `task:${taskId}`,
    });
    return c;
  }

  const cancelledOf = (c: LiveSocket, taskId: string) =>
    ofName(c, 'task.cancelled').filter((p) => (p as { task_id: string }).task_id === taskId);

  it('30,000 messages (subscribe, unsubscribe, garbage) from one socket: the process stays up and serves, other clients keep receiving their events, the flooder is refused then disconnected', async () => {
    const [flooder, bystander] = rig.agents;
    const floodTask = await newTask(flooder);
    const [during, after] = [await newTask(bystander), await newTask(bystander)];
    const watcher = await watching(bystander, during);
    expect(await watcher.socket.emitWithAck('subscribe', { task_id: after })).toMatchObject({ ok: true });
    const hostile = await connect(flooder.apiKey);
    const pid = rig.server.pid;

    const flooding = flood(hostile, floodTask, { messages: 30_000, untilDisconnected: true });
    // While the flood is on: the bystander's change reaches its socket, and the health check answers.
    await cancel(bystander, during);
    expect((await fetch(`${rig.server.baseUrl}/health`)).status).toBe(200);
    await waitFor(
      () => cancelledOf(watcher, during).length === 1,
      'the bystander’s task.cancelled during the flood',
    );
    const result = await flooding;

    expect(result.sent).toBeGreaterThanOrEqual(30_000);
    // Some messages passed (the burst and the rate), answered as usual; the rest were refused or dropped.
    expect(result.answers.ok).toBeGreaterThan(0);
    expect(result.answers.rate_limited).toBeGreaterThan(0);
    const answered = Object.values(result.answers).reduce((a, b) => a + b, 0);
    expect(answered).toBeLessThan(result.sent / 10);
    // A socket that keeps flooding is told why, then disconnected by the server.
    expect(result.disconnected).toBe(true);
    expect(result.reason).toBe('io server disconnect');
    expect(result.error).toEqual({ code: 'rate_limited', message: expect.stringMatching(/Disconnected/) });

    // The same process, still serving: HTTP, events to others, and the flooder's own next connection.
    expect(rig.server.pid).toBe(pid);
    expect((await fetch(`${rig.server.baseUrl}/health`)).status).toBe(200);
    expect(ofName(watcher, 'error')).toEqual([]);
    await cancel(bystander, after);
    await waitFor(
      () => cancelledOf(watcher, after).length === 1,
      'the bystander’s task.cancelled after the flood',
    );
    const again = await connect(flooder.apiKey);
    expect(await again.socket.emitWithAck('subscribe', { task_id: floodTask })).toEqual({
      ok: true,
      room: `task:${floodTask}`,
    });
  });

  it('500 sockets for one account (API key and JWT together) leave 20 open, and each closed one is told why; a worker’s 25 leave 20', async () => {
    const [, , agent] = rig.agents;
    const [worker] = await createWorkers(rig.db, 1);
    const jwt = accessToken('agent', agent.id);
    const agentSockets: LiveSocket[] = [];
    // Waves of 50 handshakes at once, as many clients starting together would.
    for (let wave = 0; wave < 10; wave++) {
      const tokens = Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? agent.apiKey : jwt));
      agentSockets.push(...(await Promise.all(tokens.map((t) => connect(t)))));
    }
    const workerSockets = await Promise.all(Array.from({ length: 25 }, () => connect(worker.token)));

    for (const [sockets, kind, id] of [
      [agentSockets, 'agent', agent.id],
      [workerSockets, 'worker', worker.id],
    ] as const) {
      // Every socket was admitted (ready) before any was displaced: the cap closes the oldest, it refuses no one.
      expect(sockets.filter((c) => ofName(c, 'ready').length === 1)).toHaveLength(sockets.length);
      const closed = await waitFor(() => {
        const gone = sockets.filter((c) => c.closed !== null);
        return gone.length === sockets.length - 20 ? gone : null;
      }, `${kind} sockets beyond 20 to be closed`);
      for (const c of closed) {
        expect(c.closed).toBe('io server disconnect');
        expect(ofName(c, 'error')).toEqual([
          { code: 'too_many_connections', message: expect.stringContaining('at most 20') },
        ]);
      }
      const stillOpen = sockets.filter((c) => c.socket.connected);
      expect(stillOpen).toHaveLength(20);
      expect(stillOpen.every((c) => ofName(c, 'error').length === 0)).toBe(true);
      expect(ofName(stillOpen[0], 'ready')).toEqual([{ kind, id, rooms: [`${kind}:${id}`] }]);
    }
    const stats = (await (await fetch(`${rig.server.baseUrl}/v1/ws/stats`)).json()) as {
      by_kind: Record<string, number>;
    };
    expect(stats.by_kind.worker).toBe(20);
  });
});
