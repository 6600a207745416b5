import { createAgent } from '../support/actors';
import { eventSchemaProblems } from '../support/typed-events';
import { cashier, type PaymentRig, referenceAuth, startPaymentRig } from '../support/payment-rig';
import { createTask } from '../support/tasks';
import { waitForOrder } from '../support/waiters';
import { pump, registerWebhook, signatureValid, startReceiver } from './events-helpers';

jest.setTimeout(30000);

/** Payment events written by the real payment module, through the provider sandbox. */
describe('payment events from a real order', () => {
  let rig: PaymentRig;
  beforeAll(async () => {
    rig = await startPaymentRig();
  });
  afterAll(() => rig.close());

  it('payment.created and payment.completed reach the webhook endpoint and the order callback_url, each signed', async () => {
    const t = rig.t;
    const agent = await createAgent(t, { balanceCents: 10_000 });
    const endpoint = await startReceiver();
    const callback = await startReceiver('/orders/callback');
    const { secret } = await registerWebhook(t, agent, endpoint.url, [
      'payment.created',
      'payment.completed',
    ]);
    const callbackSecret = (
      await t.http.post('/v1/agent/webhooks/callback-secret').set('Authorization', agent.bearer).expect(201)
    ).body.secret as string;

    const taskId = await createTask(t, agent);
    const order = await t.http
      .post('/api/v1/payment/create')
      .set(referenceAuth(agent))
      .send({
        task_id: taskId,
        amount: 5000,
        currency: 'CNY',
        payment_method: 'wechat',
        return_url: 'https://agent.example/paid',
        callback_url: callback.url,
      })
      .expect(201);
    const orderId = order.body.order_id as string;
    await cashier(order.body.qr_code_url as string, 'pay');
    await waitForOrder(t, orderId, 'completed');
    await pump(t);

    for (const [rx, key] of [
      [endpoint, secret],
      [callback, callbackSecret],
    ] as const) {
      expect(rx.received.map((r) => r.json.event)).toEqual(['payment.created', 'payment.completed']);
      for (const r of rx.received) {
        expect(Object.keys(r.json)).toEqual(['event', 'event_id', 'timestamp', 'data']);
        expect(signatureValid(key, r.raw, r.headers['x-signature'])).toBe(true);
        expect(eventSchemaProblems(r.json)).toEqual([]);
        expect(r.json.data).not.toHaveProperty('callback_url');
      }
      expect(rx.received[1].json.data).toEqual({
        order_id: orderId,
        task_id: taskId,
        amount: 5000,
        currency: 'CNY',
        payment_method: 'wechat',
        status: 'completed',
        transaction_id: expect.any(String),
      });
    }
    expect(endpoint.received.map((r) => r.json.event_id)).toEqual(
      callback.received.map((r) => r.json.event_id),
    );
    await endpoint.close();
    await callback.close();
  });
});
