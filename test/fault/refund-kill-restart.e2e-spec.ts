import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchAgent } from '../../scripts/bench/fixtures';
import { freePort } from '../support/process';
import { type ProviderSandbox, startProviderSandbox } from '../../src/sandbox/provider-sandbox';
import {
  type Answer,
  effects,
  killDuringBurst,
  mapLimit,
  type ProcessRig,
  send,
  startProcessRig,
  untilFinal,
} from './process-support';

/**
 * The API process is killed with SIGKILL while partial refunds (money back to the payer) with an Idempotency-Key
 * are in flight, on both surfaces, then restarted; clients retry every request with its key. A refund commits its
 * balance debit before it asks the provider, so a kill often lands between that commit and the answer: the answer
 * must have committed with the refund, or the retry would refund again. Every key must end with exactly one refund
 * (or none, when the order had nothing left), the refunds of an order never exceed it, and the ledger is clean.
 * Needs the compiled server (`npm run build`).
 */
const AGENTS = 8;
const ORDERS_PER_AGENT = 2;
const ORDER_CENTS = 12_000;
const REFUND_CENTS = 1_000;
/** Refunds asked per order in each round: over three rounds 15 × 1000 for 12000 paid, so the last ones are refused. */
const PER_ORDER = 5;
/** How many refunds have committed when each kill comes. */
const KILL_AFTER = [5, 25, 50];

interface PaidOrder {
  agent: BenchAgent;
  id: string;
}

interface Refund {
  order: PaidOrder;
  key: string;
  /** Alternates between /v1/payment/refund and /api/v1/payment/refund. */
  reference: boolean;
}

describe(`fault: API process killed with SIGKILL while refunds are in flight (${KILL_AFTER.length} kills)`, () => {
  let sandbox: ProviderSandbox;
  let rig: ProcessRig;
  let dataDir: string;
  let orders: PaidOrder[];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'legwork-refund-fault-'));
    sandbox = await startProviderSandbox({
      dataDir,
      alipayPort: 0,
      wechatPort: 0,
      autoCompleteMs: null,
      timeScale: 0.0001,
      onError: () => undefined,
    });
    const port = await freePort();
    rig = await startProcessRig(
      AGENTS,
      {
        ...sandbox.serviceEnv,
        PAYMENT_NOTIFY_BASE_URL: `http://127.0.0.1:${port}`,
        PAYMENT_PROVIDERS: 'alipay',
      },
      port,
    );
    const payers = rig.agents.flatMap((a) => Array.from({ length: ORDERS_PER_AGENT }, () => a));
    orders = await mapLimit(payers, 6, (agent) => paidOrder(agent));
  }, 180_000);

  afterAll(async () => {
    await rig?.close();
    await sandbox?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** An order paid at the sandbox cashier, completed by the provider's notification to the API. */
  async function paidOrder(agent: BenchAgent): Promise<PaidOrder> {
    const created = await send(
      rig.server,
      '/v1/payment/create',
      { authorization: `Bearer ${agent.apiKey}` },
      randomUUID(),
      { amount_cents: ORDER_CENTS, payment_method: 'alipay', payment_type: 'qr' },
    );
    if (created.status !== 200) throw new Error(`order: ${created.status} ${JSON.stringify(created.body)}`);
    const paid = await fetch(`${created.body.qr_code_url as string}/pay`, {
      method: 'POST',
      redirect: 'manual',
    });
    if (paid.status !== 303) throw new Error(`cashier: ${paid.status}`);
    const id = created.body.order_id as string;
    for (let i = 0; i < 400; i++) {
      const { rows } = await rig.db.query<{ status: string }>(
        `SELECT status FROM payment_orders WHERE id = $1`,
        [id],
      );
      if (rows[0].status === 'completed') return { agent, id };
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`order ${id} was not completed`);
  }

  function request(r: Refund): Promise<Answer> {
    const { agent } = r.order;
    return r.reference
      ? send(
          rig.server,
          '/api/v1/payment/refund',
          { authorization: `Bearer ${agent.apiKey}`, 'x-api-secret': agent.apiSecret },
          r.key,
          { order_id: r.order.id, amount: REFUND_CENTS, reason: r.key },
        )
      : send(rig.server, '/v1/payment/refund', { authorization: `Bearer ${agent.apiKey}` }, r.key, {
          order_id: r.order.id,
          refund_amount_cents: REFUND_CENTS,
          refund_reason: r.key,
        });
  }

  async function countRefunds(): Promise<number> {
    const { rows } = await rig.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payment_refunds`);
    return rows[0].n;
  }

  it('every Idempotency-Key has at most one refund after kill -9, restart and retries; no order is over-refunded', async () => {
    const all: Refund[] = [];
    let cutOff = 0;
    let abandoned = 0;
    for (const progress of KILL_AFTER) {
      const batch = orders.flatMap((order) =>
        Array.from({ length: PER_ORDER }, (_, i) => ({
          order,
          key: `refund-${randomUUID()}`,
          reference: i % 2 === 1,
        })),
      );
      all.push(...batch);
      const burst = batch.map((r) => () => request(r));
      const after = (await countRefunds()) + progress;
      const [cut, left] = await killDuringBurst(rig, burst, countRefunds, after);
      cutOff += cut;
      abandoned += left;
    }
    expect(cutOff).toBeGreaterThan(0);
    expect(abandoned).toBeGreaterThan(0);

    // Retries until final: a refund (200), or 400 once the order has nothing left to refund.
    const answers = await mapLimit(all, 32, (r) => untilFinal(() => request(r)));
    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].filter((s) => s !== 200 && s !== 400)).toEqual([]);
    for (const a of answers.filter((x) => x.status === 400)) {
      expect(['validation_error', 'already_refunded']).toContain((a.body.error as { code: string }).code);
    }

    // Each key: exactly one refund when it answered 200 (the one it names), none when it answered 400.
    const { rows } = await rig.db.query<{ id: string; reason: string; order_id: string }>(
      `SELECT id, reason, order_id FROM payment_refunds`,
    );
    const byKey = new Map<string, string[]>();
    for (const r of rows) byKey.set(r.reason, [...(byKey.get(r.reason) ?? []), r.id]);
    const twice = [...byKey].filter(([, ids]) => ids.length > 1);
    expect(twice).toEqual([]);
    const refunded = all.filter((_, i) => answers[i].status === 200);
    expect(rows.length).toBe(refunded.length);
    answers.forEach((a, i) => {
      if (a.status === 200) expect(byKey.get(all[i].key)).toEqual([a.body.refund_id]);
      else expect(byKey.get(all[i].key)).toBeUndefined();
    });

    // Asking once more replays every answer.
    const again = await mapLimit(all, 32, (r) => untilFinal(() => request(r)));
    expect(again.map((a) => a.status)).toEqual(answers.map((a) => a.status));
    expect(again.map((a) => a.body.refund_id)).toEqual(answers.map((a) => a.body.refund_id));
    expect(again.every((a) => a.replayed)).toBe(true);

    // Orders: what they record as refunded is the sum of their refunds, and never more than was paid.
    const { rows: totals } = await rig.db.query<{ refunded: number; summed: number; amount: number }>(
      `SELECT o.refunded_cents::int AS refunded, o.amount_cents::int AS amount,
                (SELECT coalesce(sum(r.amount_cents), 0)::int FROM payment_refunds r
                  WHERE r.order_id = o.id AND r.status <> 'failed') AS summed
           FROM payment_orders o`,
    );
    for (const o of totals) {
      expect(o.refunded).toBe(o.summed);
      expect(o.refunded).toBeLessThanOrEqual(o.amount);
    }
    const { rows: journals } = await rig.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_journals WHERE kind = 'payer_refund'`,
    );
    expect(journals[0].n).toBe(rows.length);
    const after = await effects(rig.db);
    expect(after.violations).toEqual([]);
    console.info(
      `refund kill -9 ×${KILL_AFTER.length}: ${all.length} keys, ${cutOff} requests cut off, ${abandoned} claims ` +
        `left in progress; after retries ${rows.length} refunds, ${all.length - rows.length} refused, ledger clean`,
    );
  }, 240_000);
});
