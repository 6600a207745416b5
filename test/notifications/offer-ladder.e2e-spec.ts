import { Tokens } from '../../src/auth/tokens';
import { OFFER_SMS_QUEUE } from '../../src/notifications/services/offer-ladder';
import { OfferSms } from '../../src/notifications/services/offer-sms';
import { startTestPushService, type TestPushService } from '../../src/sandbox/push/test-push-service';
import { createAgent, createWorker, type TestAgent, type TestWorker } from '../support/actors';
import { createTestApp, type TestApp } from '../support/app';
import { waitFor } from '../support/waiters';
import type { TestPushSubscription } from '../support/web-push-client';
import {
  deliveriesOf,
  jobsFor,
  moveToChinaHour,
  offerSmsOf,
  offerTo,
  onCall,
  runSmsJobNow,
  workerWithDevice,
  unansweredOffer,
} from './ladder-helpers';

/**
 * The offer ladder (product-decisions §16) through the public API and the job runner, with no socket connected:
 * the offer goes at once by Web Push to the worker's subscribed devices (read back at the test push service and
 * decrypted with the subscription's keys), and when still unanswered 30 s later (the tests' clock moved, never
 * waited for) by SMS with the link to its page (read back from the sandbox outbox); never in quiet hours, never to a
 * worker who turned offer SMS off, at most 10 a day, and not past the hourly offer budget. Each channel's outcome is
 * kept with the offer (offer_deliveries).
 */
describe('offer ladder: socket, Web Push, then SMS', () => {
  let t: TestApp;
  let push: TestPushService;
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createTestApp();
    push = await startTestPushService();
    agent = await createAgent(t, { balanceCents: 10_000_000 });
  });
  afterAll(async () => {
    await push.stop();
    await t.close();
  });
  beforeEach(() => moveToChinaHour(t, 10));

  async function subscribedWorker(): Promise<{ worker: TestWorker; device: TestPushSubscription }> {
    const subscribed = await workerWithDevice(t, push.baseUrl, 'en');
    await onCall(t, subscribed.worker);
    return subscribed;
  }

  it('pushes the offer at once, encrypted to the device, with the title, pay, expiry and the link to its page', async () => {
    const { worker, device } = await subscribedWorker();
    const offer = await offerTo(t, agent, worker, { title: '拍摄面包店门头', budget_cents: 5000 });
    const [message] = await waitFor(async () => {
      const list = await device.messages();
      return list.length > 0 && list;
    }, 'the push at the test push service');
    const [expires]: { offer_expires_at: Date }[] = await t.db.query(
      `SELECT offer_expires_at FROM assignments WHERE id = $1`,
      [offer.assignmentId],
    );
    expect(JSON.parse(device.decrypt(message))).toEqual({
      type: 'offer',
      assignment_id: offer.assignmentId,
      task_id: offer.taskId,
      title: '拍摄面包店门头',
      payment_cents: 4500,
      expires_at: expires.offer_expires_at.toISOString(),
      url: `/app/offers/${offer.assignmentId}`,
      locale: 'en',
    });
    // Pushed as a real push service takes it: signed with the service's VAPID key for this push service, urgent,
    // and useless after the offer's 120 s.
    expect(message).toMatchObject({
      urgency: 'high',
      content_encoding: 'aes128gcm',
      vapid: { aud: push.baseUrl, public_key: t.config.webPush.publicKey },
    });
    expect(message.ttl).toBeGreaterThan(100);
    expect(message.ttl).toBeLessThanOrEqual(120);
    await waitFor(
      async () => (await deliveriesOf(t, offer.assignmentId)).find((d) => d.channel === 'push'),
      'the push delivery',
    );
    expect(await deliveriesOf(t, offer.assignmentId)).toContainEqual({
      channel: 'push',
      status: 'sent',
      detail: null,
    });
  });

  it('still unanswered 30 s later, sends one SMS with the link to the offer, from a job queued for then', async () => {
    const { worker } = await subscribedWorker();
    const offer = await offerTo(t, agent, worker);
    const [job] = await waitFor(async () => {
      const jobs = await jobsFor(t, OFFER_SMS_QUEUE, offer.assignmentId);
      return jobs.length > 0 && jobs;
    }, 'the SMS job');
    expect(job.start_after.getTime()).toBe(offer.offeredAt.getTime() + 30_000);

    // Run before its time (the test's clock has not moved): nothing is sent, the job goes back for its due time.
    const early = await runSmsJobNow(t, offer.assignmentId);
    expect(await offerSmsOf(t, worker)).toEqual([]);
    expect(early.filter((j) => j.state === 'created').map((j) => j.start_after.getTime())).toEqual([
      offer.offeredAt.getTime() + 30_000,
    ]);

    t.clock.advance(30_000);
    await runSmsJobNow(t, offer.assignmentId);
    const link = `${t.config.publicBaseUrl}/app/offers/${offer.assignmentId}`;
    expect(await offerSmsOf(t, worker)).toEqual([
      expect.objectContaining({
        to: worker.phone,
        template: 'offer',
        params: { amount: '45.00', offer_id: offer.assignmentId, link },
        text: expect.stringContaining(link),
      }),
    ]);
    // Once: the job's work done again (a retry, a second runner) sends nothing more.
    expect(await t.app.get(OfferSms).send(offer.assignmentId)).toBe('decided');
    expect(await offerSmsOf(t, worker)).toHaveLength(1);
    expect(await deliveriesOf(t, offer.assignmentId)).toContainEqual({
      channel: 'sms',
      status: 'sent',
      detail: null,
    });
    // The link carries no credential: it is the app's page of the offer, nothing else.
    expect(new URL(link).search).toBe('');
  });

  it('sends no SMS for an offer answered within 30 s', async () => {
    const { worker } = await subscribedWorker();
    const offer = await offerTo(t, agent, worker);
    await t.http
      .post(`/v1/worker/tasks/${offer.taskId}/accept`)
      .set('Authorization', worker.bearer)
      .expect(200);
    t.clock.advance(30_000);
    await runSmsJobNow(t, offer.assignmentId);
    expect(await offerSmsOf(t, worker)).toEqual([]);
    expect((await deliveriesOf(t, offer.assignmentId)).map((d) => d.channel)).not.toContain('sms');
  });

  it('sends none in the quiet hours, 22:00 to 08:00 China time, and says so with the offer', async () => {
    moveToChinaHour(t, 23);
    const { worker } = await subscribedWorker();
    const offer = await unansweredOffer(t, agent, worker);
    expect(offer.sms).toBe('quiet_hours');
    expect(await deliveriesOf(t, offer.assignmentId)).toContainEqual({
      channel: 'sms',
      status: 'skipped',
      detail: 'quiet_hours',
    });
    expect(await offerSmsOf(t, worker)).toEqual([]);
  });

  it('sends none to a worker who turned offer SMS off', async () => {
    const { worker } = await subscribedWorker();
    await t.http
      .put('/v1/worker/notification-settings')
      .set('Authorization', worker.bearer)
      .send({ offer_sms: false })
      .expect(200);
    expect((await unansweredOffer(t, agent, worker)).sms).toBe('turned_off');
    expect(await offerSmsOf(t, worker)).toEqual([]);
  });

  it('sends at most 10 offer SMS to a worker in 24 hours', async () => {
    const { worker } = await subscribedWorker();
    const decided: string[] = [];
    for (let i = 0; i < 11; i++) {
      const offer = await unansweredOffer(t, agent, worker);
      decided.push(offer.sms);
      // Declined, so the next task can be offered to this worker.
      await t.http
        .post(`/v1/worker/assignments/${offer.assignmentId}/decline`)
        .set('Authorization', worker.bearer)
        .expect(200);
      await onCall(t, worker);
    }
    expect(decided).toEqual([...Array<string>(10).fill('sent'), 'daily_cap']);
    expect(await offerSmsOf(t, worker)).toHaveLength(10);
    // The 24 hours are counted from each SMS: a day after the first, one may go again.
    t.clock.advance(24 * 3_600_000 - 11 * 30_000);
    const pair = await t.app.get(Tokens).issuePair('worker', worker.id);
    const dayLater = { ...worker, bearer: `Bearer ${pair.access_token}` };
    await onCall(t, dayLater);
    const later = await offerTo(t, agent, dayLater);
    t.clock.advance(30_000);
    await runSmsJobNow(t, later.assignmentId);
    expect(await deliveriesOf(t, later.assignmentId)).toContainEqual({
      channel: 'sms',
      status: 'sent',
      detail: null,
    });
  });

  it('a device whose push service says it is gone is forgotten; a worker without a device gets no push', async () => {
    const { worker, device } = await subscribedWorker();
    await device.withdraw();
    const offer = await offerTo(t, agent, worker);
    await waitFor(
      async () => (await deliveriesOf(t, offer.assignmentId)).find((d) => d.channel === 'push'),
      'the push delivery',
    );
    expect(await deliveriesOf(t, offer.assignmentId)).toContainEqual({
      channel: 'push',
      status: 'failed',
      detail: 'http_410',
    });
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM push_subscriptions WHERE worker_id = $1`,
      [worker.id],
    );
    expect(n).toBe(0);
    await t.http
      .post(`/v1/worker/assignments/${offer.assignmentId}/decline`)
      .set('Authorization', worker.bearer);
    await onCall(t, worker);
    const next = await offerTo(t, agent, worker);
    await waitFor(
      async () => (await deliveriesOf(t, next.assignmentId)).find((d) => d.channel === 'push'),
      'the push delivery',
    );
    expect(await deliveriesOf(t, next.assignmentId)).toContainEqual({
      channel: 'push',
      status: 'no_connection',
      detail: null,
    });
  });
});

describe('offer SMS budget', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SMS_BUDGET_OFFER_PER_HOUR: '1' });
  });
  afterAll(() => t.close());

  it('past the hourly offer budget, an offer SMS is not sent and is recorded as skipped', async () => {
    moveToChinaHour(t, 10);
    const agent = await createAgent(t, { balanceCents: 1_000_000 });
    const outcomes: string[] = [];
    for (const worker of [await createWorker(t), await createWorker(t)]) {
      await onCall(t, worker);
      outcomes.push((await unansweredOffer(t, agent, worker)).sms);
      expect(await offerSmsOf(t, worker)).toHaveLength(outcomes.at(-1) === 'sent' ? 1 : 0);
      await t.http.put('/v1/worker/availability').set('Authorization', worker.bearer).send({ online: false });
    }
    expect(outcomes).toEqual(['sent', 'budget_spent']);
  });
});

describe('offer SMS on a sandbox test clock', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createTestApp();
    agent = await createAgent(t, { balanceCents: 1_000_000 });
  });
  afterAll(() => t.close());

  /** A worker on call, a test clock at the same time, and a task on that clock offered to the worker. */
  async function offerOnClock(chinaHour: number) {
    moveToChinaHour(t, chinaHour);
    const worker = await createWorker(t);
    await onCall(t, worker);
    const clock = await t.http
      .post('/v1/sandbox/clocks')
      .set('Authorization', agent.key)
      .send({ frozen_time: t.clock.now().toISOString() })
      .expect(201);
    const offer = await offerTo(t, agent, worker, { test_clock: clock.body.clock_id });
    const advance = (seconds: number) =>
      t.http
        .post(`/v1/sandbox/clocks/${clock.body.clock_id}/advance`)
        .set('Authorization', agent.key)
        .send({ by_seconds: seconds })
        .expect(200);
    return { worker, offer, advance };
  }

  it("sends the SMS when the clock's advance passes 30 s after the offer, at the clock's time", async () => {
    const { worker, offer, advance } = await offerOnClock(10);
    await advance(29);
    expect(await offerSmsOf(t, worker)).toEqual([]);
    await advance(1);
    expect(await offerSmsOf(t, worker)).toEqual([
      expect.objectContaining({ params: expect.objectContaining({ offer_id: offer.assignmentId }) }),
    ]);
    // A clock's offers get no SMS job, only the push one (the offer exists now): the clock's advance sends the SMS.
    await waitFor(
      async () => (await deliveriesOf(t, offer.assignmentId)).find((d) => d.channel === 'push'),
      'the push job to have run',
    );
    expect(await jobsFor(t, OFFER_SMS_QUEUE, offer.assignmentId)).toEqual([]);
  });

  it("sends none when the clock's time is in the quiet hours", async () => {
    const { worker, offer, advance } = await offerOnClock(23);
    await advance(60);
    expect(await offerSmsOf(t, worker)).toEqual([]);
    expect(await deliveriesOf(t, offer.assignmentId)).toContainEqual({
      channel: 'sms',
      status: 'skipped',
      detail: 'quiet_hours',
    });
  });
});
