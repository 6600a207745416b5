/** Display value of integer cents (fen) in RMB (product-decisions §2: `*_rmb` fields are cents / 100). */
export function centsToRmb(cents: number): number {
  return cents / 100;
}

/** The one currency of balances and ledger amounts. */
export const LEDGER_CURRENCY = 'CNY';
