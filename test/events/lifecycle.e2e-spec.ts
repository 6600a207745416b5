import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { io, Socket } from 'socket.io-client';
import { Logger } from '../../src/common/logging/logger';
import { EventsRunner } from '../../src/events/delivery/events-runner';
import { JobsRunnerModule } from '../../src/jobs/jobs-runner.module';
import { createTestApp, TestApp } from '../support/app';
import { eventSchemaProblems } from '../support/typed-events';
import { createAgent, createWorker } from '../support/actors';
import { databaseUrl } from '../support/databases';
import { accept, act, createTask, feedback, submit, SURFACES } from '../support/tasks';
import { waitFor } from '../support/waiters';
import { pump, registerWebhook, signatureValid, startReceiver } from './events-helpers';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

describe('events of a real task lifecycle (driven through HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
  });
  afterAll(() => t.close());

  it('create, accept, start, submit, approve: the receiver gets task.assigned/started/submitted/completed, signed', async () => {
    const agent = await createAgent(t, { balanceCents: 20_000 });
    const worker = await createWorker(t);
    const rx = await startReceiver();
    const { secret } = await registerWebhook(t, agent, rx.url, ['*']);

    const taskId = await createTask(t, agent);
    const assignmentId = await accept(t, worker, taskId);
    await act(t, worker, assignmentId, 'start').expect(200);
    await submit(t, worker, assignmentId).expect(200);
    await feedback(t, agent, taskId, { accept_result: true }).expect(200);
    await pump(t);
    await rx.close();

    const stored: { id: string; name: string; created_at: Date }[] = await t.db.query(
      `SELECT id, name, created_at FROM events WHERE task_id = $1 AND agent_id IS NOT NULL ORDER BY seq`,
      [taskId],
    );
    expect(stored.map((e) => e.name)).toEqual([
      'task.assigned',
      'task.started',
      'task.submitted',
      'task.completed',
    ]);
    const transitions = [
      ['pending', 'assigned'],
      ['assigned', 'in_progress'],
      ['in_progress', 'submitted'],
      ['submitted', 'completed'],
    ];
    expect(rx.received).toHaveLength(4);
    rx.received.forEach((r, i) => {
      expect(r.json).toEqual({
        event: stored[i].name,
        event_id: stored[i].id,
        task_id: taskId,
        timestamp: stored[i].created_at.toISOString(),
        data: {
          task_id: taskId,
          previous_status: transitions[i][0],
          status: transitions[i][1],
          // task.submitted carries the result for review (product-decisions §10).
          ...(stored[i].name === 'task.submitted'
            ? {
                submissions: [
                  {
                    assignment_id: assignmentId,
                    worker_id: worker.id,
                    status: 'submitted',
                    submitted_at: expect.any(String),
                    data: { storefront: 'open', photos_taken: 2 },
                    worker_notes: null,
                    photos: [],
                    device_location: null,
                    // No photo, nothing to suspect (product-decisions §18).
                    risk: 'low',
                    review_required: false,
                    review_deadline_at: null,
                  },
                ],
                // A task without an answer schema (product-decisions §17): free-form data.
                answer_schema: null,
                risk: 'low',
                review_required: false,
              }
            : {}),
        },
      });
      expect(signatureValid(secret, r.raw, r.headers['x-signature'])).toBe(true);
      expect(eventSchemaProblems(r.json)).toEqual([]);
      expect(r.headers['x-event-id']).toBe(stored[i].id);
    });
    // Assignment events are the worker's (WebSocket), never the agent's webhooks.
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM events WHERE task_id = $1 AND name LIKE 'assignment.%'`,
      [taskId],
    );
    expect(n).toBeGreaterThan(0);
  });

  it.each(Object.values(SURFACES))('a cancellation on $name sends task.cancelled', async (surface) => {
    const agent = await createAgent(t, { balanceCents: 20_000 });
    const rx = await startReceiver();
    await registerWebhook(t, agent, rx.url, ['task.cancelled']);
    const taskId = await createTask(t, agent, {}, surface);
    await surface.cancel(t, taskId).set('Authorization', agent.key).expect(200);
    await pump(t);
    expect(rx.received.map((r) => [r.json.event, r.json.task_id])).toEqual([['task.cancelled', taskId]]);
    expect((rx.received[0].json.data as { status: string }).status).toBe('cancelled');
    await rx.close();
  });

  it("a transition's events keep the order they were written in (the outbox inserts them together before COMMIT)", async () => {
    const agent = await createAgent(t, { balanceCents: 20_000 });
    const worker = await createWorker(t);
    const taskId = await createTask(t, agent);
    const assignmentId = await accept(t, worker, taskId);
    await act(t, worker, assignmentId, 'start').expect(200);
    await submit(t, worker, assignmentId).expect(200);
    const stored: { name: string; agent_id: string | null; worker_id: string | null }[] = await t.db.query(
      `SELECT name, agent_id, worker_id FROM events WHERE task_id = $1 ORDER BY seq`,
      [taskId],
    );
    expect(stored.map((e) => e.name)).toEqual([
      'assignment.accepted',
      'task.assigned',
      'assignment.started',
      'task.started',
      'assignment.submitted',
      'task.submitted',
    ]);
    expect(
      stored.filter((e) => e.name.startsWith('assignment.')).every((e) => e.worker_id === worker.id),
    ).toBe(true);
    expect(stored.filter((e) => e.name.startsWith('task.')).every((e) => e.agent_id === agent.id)).toBe(true);
  });
});

describe('the job-runner process (npm run start:jobs) publishes and delivers for API instances', () => {
  let api: TestApp;
  let jobs: INestApplicationContext;
  let base: string;
  const sockets: Socket[] = [];
  const env = { REDIS_URL, REDIS_KEY_PREFIX: `lwtest-${randomUUID()}` };

  beforeAll(async () => {
    api = await createTestApp({ ...env, JOBS_IN_PROCESS: 'false', INSTANCE_ID: 'api' });
    await api.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${((api.app.getHttpServer() as Server).address() as AddressInfo).port}`;
    jobs = await NestFactory.createApplicationContext(
      JobsRunnerModule.register(
        { ...api.config, ...{ runJobsInProcess: false, instanceId: 'jobs' } },
        databaseUrl(api.databaseName),
        new Logger('silent'),
      ),
      { logger: false },
    );
    await jobs.init();
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await jobs.close();
    await api.close();
  });

  it('only the runner runs the events loop; a webhook and a socket client on the API instance both get the event', async () => {
    expect(api.app.get(EventsRunner).running).toBe(false);
    expect(jobs.get(EventsRunner).running).toBe(true);

    const agent = await createAgent(api, { balanceCents: 20_000 });
    const worker = await createWorker(api);
    const rx = await startReceiver();
    await registerWebhook(api, agent, rx.url, ['task.assigned']);
    const taskId = await createTask(api, agent);

    const socket = io(base, {
      path: '/ws',
      auth: { token: agent.apiKey },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    const seen: unknown[] = [];
    socket.on('task.assigned', (p: unknown) => seen.push(p));
    await new Promise<void>((resolve) => socket.once('ready', () => resolve()));
    expect(await socket.emitWithAck('subscribe', { task_id: taskId })).toEqual({
      ok: true,
      room: `task:${taskId}`,
    });

    await accept(api, worker, taskId);
    await waitFor(() => rx.received.length === 1, 'the webhook', 5000);
    await waitFor(() => seen.length === 1, 'the socket message', 5000);
    expect(rx.received[0].json).toMatchObject({ event: 'task.assigned', task_id: taskId });
    expect(seen[0]).toEqual(rx.received[0].json);
    await rx.close();
  });
});
