import { randomUUID } from 'node:crypto';
import { inTransaction } from '../../src/database/transaction';
import { cancellationSplit, splitSlot } from '../../src/escrow/fees';
import { Ledger } from '../../src/escrow/services/ledger';
import type { TestApp } from './app';

/**
 * Runs `work` with the test clock set to `when` (ledger journals take their time from the clock), then puts the
 * clock back. No HTTP in between: tokens issued at the real time would not be valid at `when`.
 */
export async function atTime<T>(t: TestApp, when: Date, work: () => Promise<T>): Promise<T> {
  const offset = when.getTime() - t.clock.now().getTime();
  t.clock.advance(offset);
  try {
    return await work();
  } finally {
    t.clock.advance(-offset);
  }
}

export type TaskStatus =
  'pending' | 'assigned' | 'in_progress' | 'submitted' | 'completed' | 'failed' | 'cancelled';

export interface SeededTask {
  id: string;
  status: TaskStatus;
  title: string;
  budgetCents: number;
  maxWorkers: number;
  totalCents: number;
  createdAt: Date;
  deadlineAt: Date;
  completedAt: Date | null;
  /** What the task's money movements took from the agent for good (payouts, fees, worker compensation). */
  spentCents: number;
}

const FEE_BPS = 1000;

/**
 * A task row inserted by SQL (the task lifecycle is another module) whose money moves through the real ledger,
 * as the lifecycle would: escrow held at creation; a completed task releases every slot (payout + fee), a failed
 * one refunds every slot, a cancelled one compensates one accepted slot 70/30 and refunds the rest. Finished tasks
 * end with zero escrow, as the invariant check demands.
 */
export async function seedTask(
  t: TestApp,
  agentId: string,
  opts: {
    status?: TaskStatus;
    budgetCents?: number;
    maxWorkers?: number;
    createdAt?: Date;
    title?: string;
    workerId?: string;
  } = {},
): Promise<SeededTask> {
  const status = opts.status ?? 'pending';
  const budgetCents = opts.budgetCents ?? 2000;
  const maxWorkers = opts.maxWorkers ?? 1;
  const createdAt = opts.createdAt ?? t.clock.now();
  const title = opts.title ?? `Task ${randomUUID().slice(0, 8)}`;
  const workerId = opts.workerId ?? randomUUID();
  const { payoutCents, feeCents } = splitSlot(budgetCents, FEE_BPS);
  const totalCents = budgetCents * maxWorkers;
  const deadlineAt = new Date(createdAt.getTime() + 86_400_000);
  const finished = ['completed', 'failed', 'cancelled'].includes(status);
  const completedAt = status === 'completed' ? new Date(createdAt.getTime() + 3_600_000) : null;
  const [{ id }]: { id: string }[] = await t.db.query(
    `INSERT INTO tasks (agent_id, title, description, task_type, latitude, longitude, budget_cents, max_workers,
                        fee_bps, payout_cents, fee_cents, total_cents, status, deadline_at, estimated_completion_at,
                        completed_at, created_at, updated_at)
     VALUES ($1, $2, 'seeded by a test', 'photo', 31.23, 121.47, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12, $12)
     RETURNING id`,
    [
      agentId,
      title,
      budgetCents,
      maxWorkers,
      FEE_BPS,
      payoutCents,
      feeCents,
      totalCents,
      status,
      deadlineAt,
      completedAt,
      createdAt,
    ],
  );
  const ledger = t.app.get(Ledger);
  let spentCents = 0;
  await atTime(t, createdAt, () =>
    inTransaction(t.db, (em) => ledger.holdTaskEscrow(em, { agentId, taskId: id, amountCents: totalCents })),
  );
  if (finished) {
    await atTime(t, new Date(createdAt.getTime() + 3_600_000), () =>
      inTransaction(t.db, async (em) => {
        for (let slot = 0; slot < maxWorkers; slot++) {
          const base = { agentId, taskId: id, assignmentId: randomUUID(), workerId };
          if (status === 'completed') {
            await ledger.releaseSlot(em, { ...base, payoutCents, feeCents });
            spentCents += budgetCents;
          } else if (status === 'cancelled' && slot === 0) {
            const split = cancellationSplit(budgetCents);
            await ledger.compensateCancellation(em, { ...base, ...split });
            spentCents += split.workerCents;
          } else {
            await ledger.refundSlot(em, { ...base, amountCents: budgetCents, cause: 'rejected' });
          }
        }
      }),
    );
  }
  return {
    id,
    status,
    title,
    budgetCents,
    maxWorkers,
    totalCents,
    createdAt,
    deadlineAt,
    completedAt,
    spentCents,
  };
}
