/**
 * The fee arithmetic, in one place (product-decisions §3). budget_cents is the gross price of one worker's slot.
 * Integers only: fee = round_half_up(budget * bps / 10000), payout = budget - fee, so payout + fee = budget exactly.
 */
export interface SlotSplit {
  payoutCents: number;
  feeCents: number;
}

export interface CostBreakdown {
  worker_payout_cents: number;
  platform_fee_cents: number;
  total_cents: number;
}

export const BPS_DENOMINATOR = 10_000;

export function splitSlot(budgetCents: number, feeBps: number): SlotSplit {
  assertCents(budgetCents, 'budgetCents');
  if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps > BPS_DENOMINATOR)
    throw new RangeError('feeBps out of range');
  // round half up on non-negative integers: floor((2 * a * b + d) / (2 * d)) computed exactly in BigInt.
  const fee = Number(
    (2n * BigInt(budgetCents) * BigInt(feeBps) + BigInt(BPS_DENOMINATOR)) / (2n * BigInt(BPS_DENOMINATOR)),
  );
  return { payoutCents: budgetCents - fee, feeCents: fee };
}

/** The whole task: every slot costs budget_cents; the agent must cover total_cents. */
export function taskCost(budgetCents: number, maxWorkers: number, feeBps: number): CostBreakdown {
  if (!Number.isInteger(maxWorkers) || maxWorkers < 1)
    throw new RangeError('maxWorkers must be a positive integer');
  const slot = splitSlot(budgetCents, feeBps);
  return {
    worker_payout_cents: slot.payoutCents * maxWorkers,
    platform_fee_cents: slot.feeCents * maxWorkers,
    total_cents: budgetCents * maxWorkers,
  };
}

/**
 * Cancelling an accepted slot: 70 % back to the agent, 30 % to the worker, no platform fee. The worker's share is
 * rounded half up and the agent gets the exact remainder, so the two always sum to the slot's budget.
 */
export function cancellationSplit(budgetCents: number): { agentRefundCents: number; workerCents: number } {
  assertCents(budgetCents, 'budgetCents');
  const workerCents = Number((2n * BigInt(budgetCents) * 30n + 100n) / 200n);
  return { agentRefundCents: budgetCents - workerCents, workerCents };
}

function assertCents(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${name} must be a non-negative integer`);
}
