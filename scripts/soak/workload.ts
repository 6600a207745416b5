import { randomUUID } from 'node:crypto';
import type { BenchAgent, BenchWorker } from '../bench/fixtures';
import { CITIES } from '../bench/fixtures';
import type { Traffic } from './http';

/**
 * The soak's mixed workload, as closed loops with think time: agents create tasks (some with deadlines minutes
 * away, so the deadline sweep refunds them), review what was submitted, cancel, check balances and pay in through
 * the provider sandbox; workers find tasks nearby, accept, start, submit and withdraw; an operator reviews
 * withdrawals. Every money movement of the product is exercised while the ledger is checked every minute.
 */
export interface Workload {
  traffic: Traffic;
  agents: BenchAgent[];
  workers: BenchWorker[];
  adminToken: string;
  stopping: boolean;
  /** Orders created through the sandbox (they complete by themselves a moment later). */
  orders: number;
  withdrawals: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const think = () => sleep(100 + Math.random() * 300);
const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)];

function taskBody(): Record<string, unknown> {
  const [, lat, lon] = pick(CITIES);
  const soon = Math.random() < 0.1;
  return {
    title: 'Check the shop is open',
    description: 'Check the entrance and note the opening hours.',
    location: { latitude: lat + (Math.random() - 0.5) * 0.1, longitude: lon + (Math.random() - 0.5) * 0.1 },
    budget_cents: 1000 + Math.floor(Math.random() * 40) * 100,
    max_workers: Math.random() < 0.3 ? 2 : 1,
    deadline_at: new Date(Date.now() + (soon ? 120_000 + Math.random() * 60_000 : 86_400_000)).toISOString(),
    // Workers here submit without a located photo, which a photo task refuses (photo_required).
    task_type: 'verification',
  };
}

export async function agentLoop(w: Workload, agent: BenchAgent): Promise<void> {
  const t = w.traffic;
  const key = agent.apiKey;
  let last: Record<string, unknown> | null = null;
  while (!w.stopping) {
    const r = Math.random();
    if (r < 0.4) {
      // Now and then a client repeats its last creation (a retry): it must replay, not create again.
      const body: Record<string, unknown> =
        last && Math.random() < 0.05 ? last : { ...taskBody(), idempotency_key: randomUUID() };
      await t.call('create task', 'POST', '/v1/tasks/create', key, body);
      last = body;
    } else if (r < 0.7) {
      const list = await t.call('list submitted', 'GET', '/v1/tasks?status=submitted&limit=10', key);
      for (const task of (list.body.data as { task_id: string }[] | undefined) ?? []) {
        // An agent reads the submission before deciding (product-decisions §10); a rejection says why.
        await t.call('read result', 'GET', `/v1/tasks/${task.task_id}/result`, key);
        const accept = Math.random() < 0.85;
        await t.call(
          'feedback',
          'POST',
          `/v1/tasks/${task.task_id}/feedback`,
          key,
          {
            accept_result: accept,
            rating: accept ? 5 : 2,
            quality_score: accept ? 4.5 : 1.5,
            ...(accept ? {} : { reason_code: 'poor_quality' }),
          },
          { 'Idempotency-Key': randomUUID() },
        );
      }
    } else if (r < 0.82) {
      await t.call('list tasks', 'GET', '/v1/tasks?limit=20', key);
      await t.call('balance', 'GET', '/v1/payment/balance', key);
    } else if (r < 0.9) {
      const list = await t.call('list pending', 'GET', '/v1/tasks?status=pending&limit=5', key);
      const tasks = (list.body.data as { task_id: string }[] | undefined) ?? [];
      if (tasks.length) await t.call('cancel', 'POST', `/v1/tasks/${pick(tasks).task_id}/cancel`, key);
    } else if (r < 0.93) {
      const res = await t.call(
        'pay in',
        'POST',
        '/v1/payment/create',
        key,
        {
          amount_cents: 20_000 + Math.floor(Math.random() * 10) * 1000,
          payment_method: pick(['alipay', 'wechat']),
        },
        { 'Idempotency-Key': randomUUID() },
      );
      if (res.status < 300) w.orders++;
    } else {
      await t.call('profile', 'GET', '/v1/agent/me', key);
    }
    await think();
  }
}

export async function workerLoop(w: Workload, worker: BenchWorker): Promise<void> {
  const t = w.traffic;
  const token = worker.token;
  let lastWithdrawal = 0;
  while (!w.stopping) {
    const [, lat, lon] = pick(CITIES);
    const found = await t.call(
      'available',
      'GET',
      `/v1/worker/tasks/available?latitude=${lat}&longitude=${lon}&max_distance_km=20&limit=10`,
      token,
    );
    const tasks = (found.body.tasks as { task_id: string }[] | undefined) ?? [];
    if (tasks.length) {
      const accepted = await t.call(
        'accept',
        'POST',
        `/v1/worker/tasks/${pick(tasks).task_id}/accept`,
        token,
      );
      const id = accepted.body.assignment_id as string | undefined;
      if (accepted.status === 200 && id) {
        await think();
        if (Math.random() < 0.5) await t.call('start', 'POST', `/v1/worker/assignments/${id}/start`, token);
        if (Math.random() < 0.05) {
          await t.call('abandon', 'POST', `/v1/worker/assignments/${id}/abandon`, token);
        } else {
          await t.call('submit', 'POST', `/v1/worker/assignments/${id}/submit`, token, {
            result_data: { open: true, hours: '09:00-21:00' },
            worker_notes: 'Open, photo attached',
          });
        }
      }
    }
    if (Date.now() - lastWithdrawal > 60_000 && Math.random() < 0.1) {
      const balance = await t.call('worker balance', 'GET', '/v1/worker/balance', token);
      const cents = Number(balance.body.balance_cents ?? 0);
      if (cents >= 2000) {
        lastWithdrawal = Date.now();
        const res = await t.call('withdraw', 'POST', '/v1/payment/withdraw', token, {
          amount_cents: Math.min(cents, 30_000),
          alipay_account: `worker${worker.id.slice(0, 8)}@example.com`,
          real_name: '张三',
        });
        if (res.status < 300) w.withdrawals++;
      }
    }
    await think();
  }
}

/** The operator: approves nine in ten withdrawals waiting for review, rejects the rest. */
export async function operatorLoop(w: Workload): Promise<void> {
  const t = w.traffic;
  while (!w.stopping) {
    const list = await t.call(
      'review queue',
      'GET',
      '/v1/admin/withdrawals?status=pending_review',
      w.adminToken,
    );
    for (const item of (list.body.items as { withdrawal_id: string }[] | undefined) ?? []) {
      if (Math.random() < 0.9) {
        await t.call('approve', 'POST', `/v1/admin/withdrawals/${item.withdrawal_id}/approve`, w.adminToken);
      } else {
        await t.call('reject', 'POST', `/v1/admin/withdrawals/${item.withdrawal_id}/reject`, w.adminToken, {
          reason: 'Soak test: account name does not match',
        });
      }
    }
    await sleep(3000);
  }
}
