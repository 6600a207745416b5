import type { EntityManager } from 'typeorm';
import {
  CHECKOUT_KINDS,
  PAYMENT_METHODS,
  PAYMENT_PROVIDER_NAMES,
  PAYMENT_PROVIDERS,
  providerOf,
} from '../../src/common/payment-providers';
import { createAgent, createWorker } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';

/**
 * The migrations' CHECK constraints against the provider table (src/common/payment-providers.ts): a payment order
 * row is accepted exactly when its method, provider and payment_type go together as the table says (a method's own
 * provider; one of that provider's checkout kinds, or none for a provider without a checkout), and a withdrawal
 * exactly through a provider the table pays out through. Every combination of the table's values, plus one unknown
 * value of each, is inserted (each in a savepoint that is rolled back): a provider, method or checkout kind added to
 * the table without a migration, or a migration that lets through what the table does not, fails here.
 */
const UNKNOWN = 'not_in_the_table';

describe('the payment CHECK constraints agree with the provider table', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ JOBS_IN_PROCESS: 'false' });
  });
  afterAll(() => t.close());

  /** Whether the database accepts the statement; rolled back either way. */
  async function accepted(em: EntityManager, sql: string, params: unknown[]): Promise<boolean> {
    await em.query('SAVEPOINT probe');
    try {
      await em.query(sql, params);
      return true;
    } catch (err) {
      const code = (err as { driverError?: { code?: string } }).driverError?.code;
      // 23514: check_violation. Anything else is a mistake in this test, not an answer.
      if (code !== '23514') throw err;
      return false;
    } finally {
      await em.query('ROLLBACK TO SAVEPOINT probe');
    }
  }

  it('payment orders: method, provider and payment_type', async () => {
    const agent = await createAgent(t);
    const mismatches: string[] = [];
    let probed = 0;
    await t.db.transaction(async (em) => {
      for (const method of [...PAYMENT_METHODS, UNKNOWN]) {
        for (const provider of [...PAYMENT_PROVIDER_NAMES, UNKNOWN]) {
          for (const type of [...CHECKOUT_KINDS, null, UNKNOWN]) {
            const ok = await accepted(
              em,
              `INSERT INTO payment_orders (id, agent_id, amount_cents, currency, provider_amount_cents,
                 payment_method, provider, payment_type, status, expires_at, created_at, updated_at)
               VALUES ($1, $2, 1000, 'CNY', 1000, $3, $4, $5, 'pending', now() + interval '1 hour', now(), now())`,
              [`pay_probe_${probed++}`, agent.id, method, provider, type],
            );
            const expected = tableAllows(method, provider, type);
            if (ok !== expected)
              mismatches.push(`${method}/${provider}/${type}: table ${expected}, database ${ok}`);
          }
        }
      }
    });
    expect(probed).toBe(
      (PAYMENT_METHODS.length + 1) * (PAYMENT_PROVIDER_NAMES.length + 1) * (CHECKOUT_KINDS.length + 2),
    );
    expect(mismatches).toEqual([]);
  });

  it('withdrawals: paid out only through a provider the table pays out through', async () => {
    const worker = await createWorker(t);
    const answers: Record<string, boolean> = {};
    await t.db.transaction(async (em) => {
      for (const [i, provider] of [...PAYMENT_PROVIDER_NAMES, UNKNOWN].entries()) {
        answers[provider] = await accepted(
          em,
          `INSERT INTO withdrawals (id, worker_id, amount_cents, provider, payee_account, status, created_at,
             updated_at)
           VALUES ($1, $2, 1000, $3, 'payee@example.com', 'processing', now(), now())`,
          [`wdprobe${i}`, worker.id, provider],
        );
      }
    });
    expect(answers).toEqual({
      ...Object.fromEntries(PAYMENT_PROVIDER_NAMES.map((p) => [p, PAYMENT_PROVIDERS[p].payouts])),
      [UNKNOWN]: false,
    });
  });
});

function tableAllows(method: string, provider: string, type: string | null): boolean {
  if (!(PAYMENT_METHODS as string[]).includes(method)) return false;
  const own = providerOf(method as (typeof PAYMENT_METHODS)[number]);
  if (provider !== own) return false;
  const kinds: readonly string[] = PAYMENT_PROVIDERS[own].checkoutKinds;
  return kinds.length === 0 ? type === null : type !== null && kinds.includes(type);
}
