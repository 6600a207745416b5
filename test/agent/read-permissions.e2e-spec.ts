import { randomUUID } from 'node:crypto';
import type { Permission } from '../../src/common/actor';
import { createAgent, type TestAgent } from '../support/actors';
import { createTestApp, type TestApp } from '../support/app';
import { insertTask, writeTaskEvent } from '../events/events-helpers';
import { expectError } from '../support/errors';

/**
 * What an API key may read, by its permissions (docs/decisions.md, "API key permissions"): the profile carries the
 * balance, so it needs payment:read like the balance itself; the event history needs task:read, and shows payment
 * and refund events only to a key that also has payment:read. The agent's own session (JWT) reads everything.
 */
describe('read permissions of API keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
  });
  afterAll(() => t.close());

  const keyOf = async (permissions: Permission[]) => createAgent(t, { permissions, balanceCents: 4200 });

  describe('GET profile and me', () => {
    const paths = ['/v1/agent/profile', '/v1/agent/me', '/api/v1/agent/profile', '/api/v1/agent/me'];

    it.each([
      [[] as Permission[]],
      [['task:create', 'task:read', 'task:cancel', 'payment:write'] as Permission[]],
    ])(
      'a key with %j is 403 insufficient_permissions (payment:read) and sees no balance',
      async (permissions) => {
        const agent = await keyOf(permissions);
        for (const path of paths) {
          const res = await t.http.get(path).set('Authorization', agent.key);
          expectError(res, 403, 'insufficient_permissions');
          expect(res.body.error.required_permission).toBe('payment:read');
          expect(JSON.stringify(res.body)).not.toContain('balance');
        }
      },
    );

    it('a key with payment:read, and the JWT, read it', async () => {
      const agent = await keyOf(['payment:read']);
      for (const path of paths) {
        for (const auth of [agent.key, agent.bearer]) {
          const res = await t.http.get(path).set('Authorization', auth).expect(200);
          expect(res.body).toMatchObject({ agent_id: agent.id, balance_cents: 4200 });
        }
      }
    });
  });

  describe('GET /v1/agent/events', () => {
    /** One task event and one payment event of the agent. */
    async function history(agent: TestAgent): Promise<{ task: string; payment: string }> {
      const taskId = await insertTask(t, agent.id);
      const task = await writeTaskEvent(t, 'task.assigned', agent.id, taskId, {});
      t.clock.advance(1000);
      const payment = await writeTaskEvent(t, 'payment.completed', agent.id, taskId, {
        order_id: `pay_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
      });
      return { task, payment };
    }
    const list = (agent: TestAgent, auth: string, q = '') =>
      t.http.get(`/v1/agent/events${q}`).set('Authorization', auth);
    const ids = (body: { data: { event_id: string }[] }) => body.data.map((e) => e.event_id);

    it('a task:read key sees task events only; asking for a payment event type is 403 (payment:read)', async () => {
      const agent = await keyOf(['task:read']);
      const h = await history(agent);
      for (const path of ['/v1/agent/events', '/api/v1/agent/events']) {
        const res = await t.http.get(path).set('Authorization', agent.key).expect(200);
        expect(ids(res.body)).toEqual([h.task]);
      }
      const typed = await list(agent, agent.key, '?type=payment.completed');
      expectError(typed, 403, 'insufficient_permissions');
      expect(typed.body.error.required_permission).toBe('payment:read');
    });

    it('task:read with payment:read, and the JWT, see both', async () => {
      const agent = await keyOf(['task:read', 'payment:read']);
      const h = await history(agent);
      expect(ids((await list(agent, agent.key).expect(200)).body)).toEqual([h.payment, h.task]);
      expect(ids((await list(agent, agent.bearer).expect(200)).body)).toEqual([h.payment, h.task]);
      const typed = await list(agent, agent.key, '?type=payment.completed').expect(200);
      expect(ids(typed.body)).toEqual([h.payment]);
    });

    it('payment:read alone is 403 (task:read), as before', async () => {
      const agent = await keyOf(['payment:read']);
      const res = await list(agent, agent.key);
      expectError(res, 403, 'insufficient_permissions');
      expect(res.body.error.required_permission).toBe('task:read');
    });
  });
});
