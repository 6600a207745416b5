import { Accounts } from '../../src/escrow/accounts';
import type { TestApp } from './app';

/** The cached balance of a ledger account (0 when the account does not exist yet), read straight from SQL. */
export async function balanceOf(t: Pick<TestApp, 'db'>, code: string): Promise<number> {
  const rows: { balance: string }[] = await t.db.query(
    `SELECT balance FROM ledger_accounts WHERE code = $1`,
    [code],
  );
  return Number(rows[0]?.balance ?? 0);
}

export const agentBalance = (t: Pick<TestApp, 'db'>, agentId: string) =>
  balanceOf(t, Accounts.agentAvailable(agentId).code);
export const workerBalance = (t: Pick<TestApp, 'db'>, workerId: string) =>
  balanceOf(t, Accounts.workerAvailable(workerId).code);
export const platformFees = (t: Pick<TestApp, 'db'>) => balanceOf(t, Accounts.platformFees().code);
export const escrowOf = (t: Pick<TestApp, 'db'>, taskId: string) => balanceOf(t, `task:${taskId}:escrow`);
export const clearing = (t: Pick<TestApp, 'db'>, provider: string) =>
  balanceOf(t, `provider:${provider}:clearing`);
