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

/**
 * A share of one slot (product-decisions §19), for an accepted "could not do it" report (`percent` =
 * unable_payout_percent) and for a dispute split (`percent` = worker_percent): share = round_half_up(budget * percent
 * / 100), the fee is the ordinary fee on that share (round_half_up(share * bps / 10000)), the worker gets share - fee,
 * and the agent the rest of the slot. worker + fee + agent = budget exactly.
 */
export interface ShareSplit {
  shareCents: number;
  workerCents: number;
  feeCents: number;
  agentRefundCents: number;
}

export function shareSplit(budgetCents: number, percent: number, feeBps: number): ShareSplit {
  assertCents(budgetCents, 'budgetCents');
  if (!Number.isInteger(percent) || percent < 0 || percent > 100)
    throw new RangeError('percent out of range');
  const shareCents = Number((2n * BigInt(budgetCents) * BigInt(percent) + 100n) / 200n);
  const share = splitSlot(shareCents, feeBps);
  return {
    shareCents,
    workerCents: share.payoutCents,
    feeCents: share.feeCents,
    agentRefundCents: budgetCents - shareCents,
  };
}

function assertCents(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${name} must be a non-negative integer`);
}
