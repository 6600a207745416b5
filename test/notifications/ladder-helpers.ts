import { OFFER_SMS_QUEUE } from '../../src/notifications/services/offer-ladder';
import { createWorker, type TestAgent, type TestWorker } from '../support/actors';
import type { TestApp } from '../support/app';
import { createTask } from '../support/tasks';
import { waitFor } from '../support/waiters';
import { subscribeAtTestPushService, type TestPushSubscription } from '../support/web-push-client';

/** Where the offer ladder tests' worker stands: the task goes 40 m away. */
export const PLACE = { latitude: 31.2304, longitude: 121.4737 };
const NEAR = { latitude: 31.23076, longitude: 121.4737 };

/**
 * Moves the test clock to the next 10:00 China time (02:00 UTC), outside the quiet hours of offer SMS whatever time
 * the suite runs at; `hour` picks another China hour.
 */
export function moveToChinaHour(t: TestApp, hour = 10): void {
  const now = t.clock.now().getTime();
  const target = new Date(now);
  target.setUTCHours((hour - 8 + 24) % 24, 0, 0, 0);
  if (target.getTime() <= now) target.setUTCDate(target.getUTCDate() + 1);
  t.clock.advance(target.getTime() - now);
}

/**
 * Moves the test clock to 08:00 China time when it is in the quiet hours of offer SMS or within half an hour of them
 * (a test's steps must not cross 22:00); otherwise leaves it.
 */
export function leaveQuietHours(t: TestApp): void {
  const now = t.clock.now();
  const chinaMinutes = (((now.getUTCHours() + 8) % 24) * 60 + now.getUTCMinutes()) % (24 * 60);
  if (chinaMinutes >= 21 * 60 + 30 || chinaMinutes < 8 * 60) moveToChinaHour(t, 8);
}

export async function onCall(t: TestApp, worker: TestWorker): Promise<void> {
  await t.http
    .put('/v1/worker/availability')
    .set('Authorization', worker.bearer)
    .send({ online: true, ...NEAR })
    .expect(200);
}

/** An agent's task near the worker on call, and the offer it makes to them. */
export async function offerTo(
  t: TestApp,
  agent: TestAgent,
  worker: TestWorker,
  over: Record<string, unknown> = {},
): Promise<{ taskId: string; assignmentId: string; offeredAt: Date }> {
  const taskId = await createTask(t, agent, {
    location: { ...PLACE, address: '88 Century Avenue' },
    ...over,
  });
  const [offer]: { id: string; offered_at: Date }[] = await t.db.query(
    `SELECT id, offered_at FROM assignments WHERE task_id = $1 AND worker_id = $2 AND status = 'pending'`,
    [taskId, worker.id],
  );
  if (!offer) throw new Error(`task ${taskId} was not offered to worker ${worker.id}`);
  return { taskId, assignmentId: offer.id, offeredAt: offer.offered_at };
}

export interface QueuedJob {
  id: string;
  state: string;
  start_after: Date;
}

/** The pg-boss jobs of `queue` about one offer (or what `key` of the job's data names), oldest first. */
export function jobsFor(t: TestApp, queue: string, id: string, key = 'assignment_id'): Promise<QueuedJob[]> {
  return t.db.query(
    `SELECT id, state, start_after FROM pgboss.job WHERE name = $1 AND data->>$3 = $2
      ORDER BY created_on, start_after`,
    [queue, id, key],
  );
}

/**
 * Runs the waiting job of `queue` about `id` now, through pg-boss and the job runner as in production: an SMS job is
 * due 30 s later by the database's clock, which the tests' clock does not move, so its start is brought forward,
 * then the test waits for the runner to finish it. Returns the jobs about `id` afterwards.
 */
export async function runJobNow(
  t: TestApp,
  queue: string,
  id: string,
  key = 'assignment_id',
): Promise<QueuedJob[]> {
  const waiting = await waitFor(
    async () => (await jobsFor(t, queue, id, key)).find((j) => j.state === 'created'),
    `the ${queue} job of ${id}`,
  );
  await t.db.query(`UPDATE pgboss.job SET start_after = now() WHERE id = $1`, [waiting.id]);
  await waitFor(
    async () =>
      (await jobsFor(t, queue, id, key)).find((j) => j.id === waiting.id && j.state === 'completed'),
    `the ${queue} job of ${id} to run`,
    20_000,
  );
  return jobsFor(t, queue, id, key);
}

/** Runs the offer's waiting SMS job now (runJobNow). */
export function runSmsJobNow(t: TestApp, assignmentId: string): Promise<QueuedJob[]> {
  return runJobNow(t, OFFER_SMS_QUEUE, assignmentId);
}

export interface DeliveryRow {
  channel: string;
  status: string;
  detail: string | null;
}

export function deliveriesOf(t: TestApp, assignmentId: string): Promise<DeliveryRow[]> {
  return t.db.query(
    `SELECT channel, status, detail FROM offer_deliveries WHERE assignment_id = $1 ORDER BY channel`,
    [assignmentId],
  );
}

/**
 * What became of the offer's SMS: `sent`, a reason it was skipped (`quiet_hours`, `turned_off`, `daily_cap`,
 * `budget_spent`), `failed`, or `none` when no SMS was decided (the offer was answered in time).
 */
export async function smsDecision(t: TestApp, assignmentId: string): Promise<string> {
  const sms = (await deliveriesOf(t, assignmentId)).find((d) => d.channel === 'sms');
  return sms ? (sms.detail ?? sms.status) : 'none';
}

/** An offer to the worker left unanswered 30 s (the tests' clock moved), its SMS job run: the offer and its SMS. */
export async function unansweredOffer(
  t: TestApp,
  agent: TestAgent,
  worker: TestWorker,
): Promise<{ assignmentId: string; sms: string }> {
  const offer = await offerTo(t, agent, worker);
  t.clock.advance(30_000);
  await runSmsJobNow(t, offer.assignmentId);
  return { assignmentId: offer.assignmentId, sms: await smsDecision(t, offer.assignmentId) };
}

export interface OutboxSms {
  to: string;
  template: string;
  params: Record<string, string>;
  text: string;
}

/** The sandbox outbox of the worker's own number (GET /v1/sandbox/sms), one template only, newest first. */
export async function smsOf(t: TestApp, worker: TestWorker, template = 'offer'): Promise<OutboxSms[]> {
  const res = await t.http.get('/v1/sandbox/sms').query({ limit: 100 }).set('Authorization', worker.bearer);
  if (res.status !== 200) throw new Error(`outbox: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.messages as OutboxSms[]).filter((m) => m.template === template);
}

export const offerSmsOf = (t: TestApp, worker: TestWorker) => smsOf(t, worker, 'offer');

/** A new worker with one device subscribed to Web Push at the test push service, in `locale`. */
export async function workerWithDevice(
  t: TestApp,
  pushBaseUrl: string,
  locale: 'en' | 'zh-CN' = 'en',
): Promise<{ worker: TestWorker; device: TestPushSubscription }> {
  const worker = await createWorker(t);
  const device = await subscribeAtTestPushService(pushBaseUrl, t.config.webPush.publicKey);
  await t.http
    .post('/v1/worker/push-subscriptions')
    .set('Authorization', worker.bearer)
    .send({ ...device.toJSON(), locale })
    .expect(201);
  return { worker, device };
}
