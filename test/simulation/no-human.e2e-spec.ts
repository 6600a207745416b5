import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestAgent } from '../support/actors';
import { registerAgent } from '../support/agents';
import { type NotificationReceiver, startNotificationReceiver } from '../contract/notification-receiver';
import { offset, spot } from '../support/photos';
import { type PaymentRig, startPaymentRig } from '../support/payment-rig';
import { agentBalance, workerBalance } from '../support/balances';
import { photoTask, poll } from './simulation-helpers';

interface TaskEvent {
  event: string;
  task_id: string;
  data: Record<string, unknown>;
}

/**
 * Product-decisions §12, end to end through HTTP with nothing but the agent's own calls: register, recharge by Alipay page
 * (the sandbox pays it 5 seconds later), add a `reliable` simulated worker near the task, create the task, receive
 * task.assigned, task.started and task.submitted by signed webhook, approve, read the result. The worker is paid,
 * the ledger is clean (checked after the file). Real time is printed, never asserted.
 */
describe('a sandbox agent with no human step', () => {
  let rig: PaymentRig;
  let receiver: NotificationReceiver<TaskEvent>;
  let secret = '';
  const uploadDir = mkdtempSync(join(tmpdir(), 'legwork-sim-uploads-'));

  beforeAll(async () => {
    rig = await startPaymentRig({ JOBS_IN_PROCESS: 'true', UPLOAD_DIR: uploadDir }, { autoCompleteMs: 5000 });
    // A receiver that checks each delivery's signature as an integrator would.
    receiver = await startNotificationReceiver<TaskEvent>((req) => {
      const expected = `sha256=${createHmac('sha256', secret).update(req.rawBody).digest('hex')}`;
      const got = String(req.headers['x-signature'] ?? '');
      if (got.length !== expected.length || !timingSafeEqual(Buffer.from(got), Buffer.from(expected))) {
        return { status: 401, body: 'bad signature' };
      }
      return { status: 200, body: 'ok', outcome: JSON.parse(req.rawBody.toString('utf8')) as TaskEvent };
    });
  });
  afterAll(async () => {
    await receiver.close();
    await rig.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('goes from registration to an approved, paid task', async () => {
    const started = Date.now();
    const t = rig.t;
    const reg = await registerAgent(t);
    expect(reg.apiKey.startsWith('lw_test_')).toBe(true);
    const agent = {
      id: reg.id,
      key: `Bearer ${reg.apiKey}`,
      bearer: `Bearer ${reg.accessToken}`,
    } as TestAgent;

    const hook = await t.http
      .post('/v1/agent/webhooks')
      .set('Authorization', agent.bearer)
      .send({
        url: `${receiver.url}/legwork`,
        events: ['task.assigned', 'task.started', 'task.submitted', 'task.completed'],
      });
    expect(hook.status).toBe(201);
    secret = hook.body.secret as string;

    // Recharge by Alipay page, the spec's recharge: nobody opens the URL, the sandbox pays it.
    const recharge = await t.http
      .post('/v1/payment/recharge')
      .set('Authorization', agent.key)
      .send({ amount_cents: 10_000 });
    expect(recharge.status).toBe(200);
    expect(recharge.body.payment_url).toEqual(expect.any(String));
    await poll(
      async () => {
        const b = await t.http.get('/v1/payment/balance').set('Authorization', agent.key);
        return b.body.balance_cents === 10_000 ? true : undefined;
      },
      'the recharge to be credited',
      15_000,
    );
    const funded = Date.now();

    const at = spot();
    const worker = await t.http
      .post('/v1/sandbox/workers')
      .set('Authorization', agent.key)
      .send({ name: 'Reliable Li', persona: 'reliable', location: offset(at, 40) });
    expect(worker.status).toBe(201);
    const workerId = worker.body.worker_id as string;

    const created = await t.http
      .post('/v1/tasks/create')
      .set('Authorization', agent.key)
      .send(photoTask(t, at));
    expect(created.status).toBe(201);
    const taskId = created.body.task_id as string;

    const names = () =>
      receiver.received.filter((r) => r.outcome?.task_id === taskId).map((r) => r.outcome!.event);
    await receiver.waitFor(() => names().includes('task.submitted'), 20_000);
    expect(names()).toEqual(['task.assigned', 'task.started', 'task.submitted']);
    expect(receiver.received.every((r) => r.outcome !== undefined)).toBe(true);
    const submitted = Date.now();

    const approve = await t.http
      .post(`/v1/tasks/${taskId}/feedback`)
      .set('Authorization', agent.key)
      .send({ accept_result: true, rating: 5, quality_score: 4.5, feedback_text: 'Thanks, robot.' });
    expect(approve.status).toBe(200);

    const result = await t.http.get(`/v1/tasks/${taskId}/result`).set('Authorization', agent.key);
    expect(result.status).toBe(200);
    expect(result.body.status).toBe('completed');
    expect(result.body.result.data).toEqual({ observed: true, note: 'Done as asked (simulated worker).' });
    expect(result.body.result.photos).toHaveLength(1);
    await receiver.waitFor(() => names().includes('task.completed'), 10_000);

    // Money: the task cost 5000 of the 10000; the worker has its 90 %.
    expect(await agentBalance(t, agent.id)).toBe(5_000);
    expect(await workerBalance(t, workerId)).toBe(4_500);
    const activity = await t.http.get(`/v1/sandbox/workers/${workerId}`).set('Authorization', agent.key);
    expect(
      activity.body.activity.map((a: { step: string; outcome: string }) => `${a.step}:${a.outcome}`),
    ).toEqual(['submit:ok', 'start:ok', 'accept:ok']);
    const ledger = await t.http.get('/v1/payment/balance').set('Authorization', agent.key);
    expect(ledger.body.balance_cents).toBe(5_000);
    console.log(
      `no human step: funded after ${funded - started} ms, submitted after ${submitted - started} ms, ` +
        `approved and paid after ${Date.now() - started} ms of real time`,
    );
  });
});
