import { MoneyPush } from '../../src/notifications/services/money-push';
import { MONEY_SMS_QUEUE, MoneySms } from '../../src/notifications/services/money-sms';
import { startTestPushService, type TestPushService } from '../../src/sandbox/push/test-push-service';
import { createAgent, createWorker, type TestAgent, type TestWorker } from '../support/actors';
import { createAdmin } from '../support/admins';
import { createTestApp, type TestApp } from '../support/app';
import { accept, createTask, feedback, relogin, submit } from '../support/tasks';
import { waitFor } from '../support/waiters';
import type { TestPushSubscription } from '../support/web-push-client';
import { jobsFor, moveToChinaHour, runJobNow, smsOf, workerWithDevice } from './ladder-helpers';

interface NotificationView {
  notification_id: string;
  kind: string;
  assignment_id: string;
  task_id: string;
  task_title: string;
  amount_cents: number;
  reason_code: string | null;
  reason_text: string | null;
  dispute_outcome: string | null;
  read_at: string | null;
  deliveries: { channel: string; status: string }[];
}

/**
 * Workers hear of their money through the offer ladder (product-decisions §19 through §16), through the public API
 * and the job runner, with no socket connected: approval, rejection with the reason, an accepted "could not do it"
 * and a decided dispute each make one notification the worker lists (GET /v1/worker/notifications), pushed at once
 * to their subscribed devices (read back at the test push service, decrypted with the subscription's keys), and by
 * SMS only when they turned money SMS on, never in the quiet hours (held until 08:00 China time). Each channel sends
 * once per event, whatever the jobs or the publication run again. Budget 5,000 at the default 10 % fee: approval
 * pays 4,500.
 */
describe('money notifications through the offer ladder', () => {
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

  const subscribedWorker = (locale: 'en' | 'zh-CN' = 'en') => workerWithDevice(t, push.baseUrl, locale);

  /** A result the worker submitted on a new task of the agent's. */
  async function submitted(worker: TestWorker, title = '拍摄面包店门头') {
    const taskId = await createTask(t, agent, { title });
    const assignmentId = await accept(t, worker, taskId);
    await submit(t, worker, assignmentId).expect(200);
    return { taskId, assignmentId };
  }

  async function list(worker: TestWorker, query: Record<string, unknown> = {}) {
    const res = await t.http
      .get('/v1/worker/notifications')
      .query(query)
      .set('Authorization', worker.bearer)
      .expect(200);
    return res.body as { notifications: NotificationView[]; total: number; unread_count: number };
  }

  /** The worker's notification of one assignment, once it exists with its push and socket rungs recorded. */
  function noticeOf(worker: TestWorker, assignmentId: string, kind: string): Promise<NotificationView> {
    return waitFor(async () => {
      const n = (await list(worker)).notifications.find(
        (x) => x.assignment_id === assignmentId && x.kind === kind,
      );
      const channels = n?.deliveries.map((d) => d.channel) ?? [];
      return n && channels.includes('push') && channels.includes('socket') && n;
    }, `the ${kind} notification of ${assignmentId}`);
  }

  /**
   * What the device's push service was handed, once `count` pushes are there: the push row is claimed (`sent`)
   * before the push goes out, so the notification's deliveries can show it a moment before it arrives.
   */
  async function pushes(device: TestPushSubscription, count = 1): Promise<Record<string, unknown>[]> {
    const messages = await waitFor(async () => {
      const held = await device.messages();
      return held.length >= count && held;
    }, `${count} push(es) at the test push service`);
    return messages.map((m) => JSON.parse(device.decrypt(m)) as Record<string, unknown>);
  }

  const smsJobs = (notificationId: string) => jobsFor(t, MONEY_SMS_QUEUE, notificationId, 'notification_id');
  const runSmsJobNow = (notificationId: string) =>
    runJobNow(t, MONEY_SMS_QUEUE, notificationId, 'notification_id');
  const moneySmsOf = (worker: TestWorker) => smsOf(t, worker, 'money');

  const smsRow = (notificationId: string) =>
    t.db.query<{ status: string; detail: string | null }[]>(
      `SELECT status, detail FROM worker_notification_deliveries WHERE notification_id = $1 AND channel = 'sms'`,
      [notificationId],
    );

  it('approved: the worker is pushed the pay net of the fee, opening the assignment, and lists it with the amount', async () => {
    const { worker, device } = await subscribedWorker('en');
    const { taskId, assignmentId } = await submitted(worker);
    await feedback(t, agent, taskId, { accept_result: true }).expect(200);

    const notice = await noticeOf(worker, assignmentId, 'paid');
    expect(notice).toMatchObject({
      kind: 'paid',
      task_id: taskId,
      task_title: '拍摄面包店门头',
      amount_cents: 4500,
      reason_code: null,
      dispute_outcome: null,
      read_at: null,
    });
    // No socket was open; the device's push service took the push.
    expect(notice.deliveries).toEqual([
      expect.objectContaining({ channel: 'socket', status: 'no_connection' }),
      expect.objectContaining({ channel: 'push', status: 'sent' }),
    ]);
    expect(await pushes(device)).toEqual([
      {
        type: 'money',
        notification_id: notice.notification_id,
        kind: 'paid',
        assignment_id: assignmentId,
        task_id: taskId,
        amount_cents: 4500,
        heading: 'Paid · ¥45.00',
        body: '拍摄面包店门头',
        url: `/app/mine/${assignmentId}`,
        locale: 'en',
      },
    ]);
    const [message] = await device.messages();
    expect(message).toMatchObject({ urgency: 'normal', content_encoding: 'aes128gcm', ttl: 86_400 });

    // Marked read by its owner: the unread count falls.
    expect((await list(worker)).unread_count).toBe(1);
    const read = await t.http
      .post('/v1/worker/notifications/read')
      .set('Authorization', worker.bearer)
      .send({ notification_ids: [notice.notification_id] })
      .expect(200);
    expect(read.body).toEqual({ unread_count: 0 });
    expect((await list(worker)).notifications[0].read_at).toEqual(expect.any(String));
  });

  it('rejected: the agent’s reason and words, pushed in Chinese to a zh-CN device', async () => {
    const { worker, device } = await subscribedWorker('zh-CN');
    const { taskId, assignmentId } = await submitted(worker);
    await feedback(t, agent, taskId, {
      accept_result: false,
      reason_code: 'wrong_location',
      feedback_text: 'Not the shop',
    }).expect(200);

    const notice = await noticeOf(worker, assignmentId, 'rejected');
    expect(notice).toMatchObject({
      amount_cents: 0,
      reason_code: 'wrong_location',
      reason_text: 'Not the shop',
    });
    expect(await pushes(device)).toEqual([
      expect.objectContaining({
        kind: 'rejected',
        heading: '结果未被接受',
        body: '拍摄面包店门头\n理由：“Not the shop”\n可在 72 小时内申诉',
        locale: 'zh-CN',
      }),
    ]);
  });

  it('"could not do it" accepted: the share less its fee (5,000 at 20 %: 900)', async () => {
    const { worker, device } = await subscribedWorker('en');
    const taskId = await createTask(t, agent);
    const assignmentId = await accept(t, worker, taskId);
    await t.http
      .post(`/v1/worker/assignments/${assignmentId}/unable`)
      .set('Authorization', worker.bearer)
      .send({ reason: 'closed', note: 'Shutters down, closed for renovation' })
      .expect(200);
    await feedback(t, agent, taskId, { accept_result: true }).expect(200);

    expect(await noticeOf(worker, assignmentId, 'unable_paid')).toMatchObject({ amount_cents: 900 });
    expect(await pushes(device)).toEqual([
      expect.objectContaining({ kind: 'unable_paid', heading: '"Could not do it" accepted · ¥9.00' }),
    ]);
  });

  it('a dispute decided: the outcome and what it paid, after the rejection’s own notification', async () => {
    const { worker, device } = await subscribedWorker('en');
    const { taskId, assignmentId } = await submitted(worker);
    await feedback(t, agent, taskId, { accept_result: false, reason_code: 'wrong_location' }).expect(200);
    const opened = await t.http
      .post(`/v1/worker/assignments/${assignmentId}/dispute`)
      .set('Authorization', worker.bearer)
      .send({ statement: 'The photo shows the right shop, its number is on the door.' })
      .expect(201);
    const disputeId = opened.body.dispute_id as string;
    await t.http
      .post(`/v1/tasks/${taskId}/disputes/${disputeId}/response`)
      .set('Authorization', agent.key)
      .send({ statement: 'The number on the door is 300; the brief says 302.' })
      .expect(200);
    const admin = await createAdmin(t);
    await t.http
      .post(`/v1/admin/disputes/${disputeId}/decision`)
      .set('Authorization', admin.bearer)
      .send({ outcome: 'overturned' })
      .expect(200);

    expect(await noticeOf(worker, assignmentId, 'dispute_decided')).toMatchObject({
      amount_cents: 4500,
      dispute_outcome: 'overturned',
    });
    const all = await list(worker);
    expect(all.notifications.map((n) => n.kind)).toEqual(['dispute_decided', 'rejected']);
    expect(all.unread_count).toBe(2);
    // Each its own job: they may reach the push service in either order.
    expect((await pushes(device, 2)).map((p) => p.heading).sort()).toEqual([
      'Dispute decided: overturned, ¥45.00 paid',
      'Your result was rejected',
    ]);
  });

  it('no SMS in the quiet hours: one due at 23:00 China time waits until 08:00, then goes once', async () => {
    moveToChinaHour(t, 23);
    const { worker } = await subscribedWorker('en');
    await relogin(t, worker);
    await t.http
      .put('/v1/worker/notification-settings')
      .set('Authorization', worker.bearer)
      .send({ money_sms: true })
      .expect(200)
      .expect((res) => expect(res.body).toMatchObject({ offer_sms: true, money_sms: true }));
    const { taskId, assignmentId } = await submitted(worker);
    await feedback(t, agent, taskId, { accept_result: true }).expect(200);
    const notice = await noticeOf(worker, assignmentId, 'paid');

    t.clock.advance(30_000);
    await runSmsJobNow(notice.notification_id);
    expect(await smsRow(notice.notification_id)).toEqual([{ status: 'waiting', detail: 'quiet_hours' }]);
    expect(await moneySmsOf(worker)).toEqual([]);
    // Its job waits for 08:00 China time (00:00 UTC).
    const [next] = (await smsJobs(notice.notification_id)).filter((j) => j.state === 'created');
    expect(next.start_after.toISOString()).toMatch(/T00:00:00\.000Z$/);

    moveToChinaHour(t, 8);
    await relogin(t, worker);
    await runSmsJobNow(notice.notification_id);
    const link = `${t.config.publicBaseUrl}/app/mine/${assignmentId}`;
    expect(await moneySmsOf(worker)).toEqual([
      expect.objectContaining({
        to: worker.phone,
        template: 'money',
        params: { assignment_id: assignmentId, link },
        text: expect.stringContaining(link),
      }),
    ]);
    expect(await smsRow(notice.notification_id)).toEqual([{ status: 'sent', detail: null }]);
    // Once: the job's work done again sends nothing more.
    expect(await t.app.get(MoneySms).send(notice.notification_id)).toBe('decided');
    expect(await moneySmsOf(worker)).toHaveLength(1);
  });

  it('no SMS to a worker who did not turn money SMS on, nor once they read it in the app', async () => {
    const { worker } = await subscribedWorker('en');
    const { taskId, assignmentId } = await submitted(worker);
    await feedback(t, agent, taskId, { accept_result: true }).expect(200);
    const off = await noticeOf(worker, assignmentId, 'paid');
    t.clock.advance(30_000);
    await runSmsJobNow(off.notification_id);
    expect(await smsRow(off.notification_id)).toEqual([{ status: 'skipped', detail: 'turned_off' }]);

    await relogin(t, worker);
    await t.http
      .put('/v1/worker/notification-settings')
      .set('Authorization', worker.bearer)
      .send({ money_sms: true })
      .expect(200);
    const second = await submitted(worker);
    await feedback(t, agent, second.taskId, { accept_result: true }).expect(200);
    const seen = await noticeOf(worker, second.assignmentId, 'paid');
    await t.http
      .post('/v1/worker/notifications/read')
      .set('Authorization', worker.bearer)
      .send({ notification_ids: [seen.notification_id] })
      .expect(200);
    t.clock.advance(30_000);
    await runSmsJobNow(seen.notification_id);
    expect(await smsRow(seen.notification_id)).toEqual([{ status: 'skipped', detail: 'read' }]);
    expect(await moneySmsOf(worker)).toEqual([]);
  });

  it('another worker sees none of them, in the list or their data export, and cannot mark them read', async () => {
    const { worker } = await subscribedWorker('en');
    const { taskId, assignmentId } = await submitted(worker);
    await feedback(t, agent, taskId, { accept_result: true }).expect(200);
    const notice = await noticeOf(worker, assignmentId, 'paid');

    const other = await createWorker(t);
    expect(await list(other)).toMatchObject({ notifications: [], total: 0, unread_count: 0 });
    const res = await t.http
      .post('/v1/worker/notifications/read')
      .set('Authorization', other.bearer)
      .send({ notification_ids: [notice.notification_id] })
      .expect(200);
    expect(res.body).toEqual({ unread_count: 0 });
    expect((await list(worker)).notifications[0]).toMatchObject({ read_at: null });
    // The worker's copy of their data holds them; the other's holds none.
    const mine = await t.http.get('/v1/worker/data-export').set('Authorization', worker.bearer).expect(200);
    expect(mine.body.notifications).toEqual([
      expect.objectContaining({ notification_id: notice.notification_id, kind: 'paid', amount_cents: 4500 }),
    ]);
    const theirs = await t.http.get('/v1/worker/data-export').set('Authorization', other.bearer).expect(200);
    expect(theirs.body.notifications).toEqual([]);
    // Bad input is refused and changes nothing.
    const bad = await t.http
      .post('/v1/worker/notifications/read')
      .set('Authorization', worker.bearer)
      .send({ notification_ids: ['not-a-uuid'] })
      .expect(400);
    expect(bad.body.error.code).toBe('validation_error');
    await t.http
      .get('/v1/worker/notifications')
      .query({ limit: 0 })
      .set('Authorization', worker.bearer)
      .expect(400);
    await t.http.get('/v1/worker/notifications').set('Authorization', agent.key).expect(403);
  });

  it('once per event: the jobs run again and the event published again send and list nothing more', async () => {
    const { worker, device } = await subscribedWorker('en');
    const { taskId, assignmentId } = await submitted(worker);
    await feedback(t, agent, taskId, { accept_result: true }).expect(200);
    const notice = await noticeOf(worker, assignmentId, 'paid');

    expect(await t.app.get(MoneyPush).send(notice.notification_id)).toEqual([]);
    t.clock.advance(30_000);
    await runSmsJobNow(notice.notification_id);
    expect(await t.app.get(MoneySms).send(notice.notification_id)).toBe('decided');
    // The approval's event published again (the publisher itself publishes once; its subscribers must not rely on it).
    const [event] = await t.db.query<{ id: string }[]>(
      `SELECT id FROM events WHERE task_id = $1 AND name = 'assignment.approved'`,
      [taskId],
    );
    await t.db.query(`UPDATE events SET published_at = NULL WHERE id = $1`, [event.id]);
    await waitFor(
      async () =>
        (
          await t.db.query<{ published_at: Date | null }[]>(`SELECT published_at FROM events WHERE id = $1`, [
            event.id,
          ])
        )[0].published_at !== null,
      'the event published again',
    );
    const [{ n }] = await t.db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM worker_notifications WHERE event_id = $1`,
      [event.id],
    );
    expect(n).toBe(1);
    expect((await list(worker)).total).toBe(1);
    expect(await device.messages()).toHaveLength(1);
    expect(await smsJobs(notice.notification_id)).toHaveLength(1);
  });

  it('pages like other worker lists, newest first', async () => {
    const { worker } = await subscribedWorker('en');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { taskId, assignmentId } = await submitted(worker, `Task ${i}`);
      await feedback(t, agent, taskId, { accept_result: true }).expect(200);
      await noticeOf(worker, assignmentId, 'paid');
      ids.push(assignmentId);
      t.clock.advance(1000);
    }
    const page = await list(worker, { limit: 2, offset: 1 });
    expect(page).toMatchObject({ total: 3, unread_count: 3, limit: 2, offset: 1 });
    expect(page.notifications.map((n) => n.assignment_id)).toEqual([ids[1], ids[0]]);
  });
});
