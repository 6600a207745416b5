import { PAYMENT_PROVIDERS, type PaymentProviderName } from '../common/payment-providers';

/**
 * Ledger account codes. One place names every account so that no other module builds codes by hand; a payment
 * provider's clearing account is its row of the provider table.
 */
export type AccountKind =
  | 'agent_available'
  | 'task_escrow'
  | 'worker_available'
  | 'worker_withdrawing'
  | 'platform_fees'
  | 'provider_clearing'
  | 'agent_owed'
  | 'platform_credit'
  | 'platform_advances';

export type Provider = PaymentProviderName;

export interface AccountRef {
  code: string;
  kind: AccountKind;
  ownerId: string | null;
  /** The agent an account belongs to (its available balance or one of its tasks' escrow). */
  agentId: string | null;
}

export const Accounts = {
  agentAvailable: (agentId: string): AccountRef => ({
    code: `agent:${agentId}:available`,
    kind: 'agent_available',
    ownerId: agentId,
    agentId,
  }),
  taskEscrow: (taskId: string, agentId: string): AccountRef => ({
    code: `task:${taskId}:escrow`,
    kind: 'task_escrow',
    ownerId: taskId,
    agentId,
  }),
  workerAvailable: (workerId: string): AccountRef => ({
    code: `worker:${workerId}:available`,
    kind: 'worker_available',
    ownerId: workerId,
    agentId: null,
  }),
  workerWithdrawing: (workerId: string): AccountRef => ({
    code: `worker:${workerId}:withdrawing`,
    kind: 'worker_withdrawing',
    ownerId: workerId,
    agentId: null,
  }),
  /** What the agent owes (product-decisions §19): never below 0; mirrored by platform:credit. */
  agentOwed: (agentId: string): AccountRef => ({
    code: `agent:${agentId}:owed`,
    kind: 'agent_owed',
    ownerId: agentId,
    agentId,
  }),
  /** The mirror of every agent's debt: owed = -credit, per agent (its journals) and in total. Never above 0. */
  platformCredit: (): AccountRef => ({
    code: 'platform:credit',
    kind: 'platform_credit',
    ownerId: null,
    agentId: null,
  }),
  /** The platform's own money paid out for agents' shortfalls, not yet repaid (negative while outstanding). */
  platformAdvances: (): AccountRef => ({
    code: 'platform:advances',
    kind: 'platform_advances',
    ownerId: null,
    agentId: null,
  }),
  platformFees: (): AccountRef => ({
    code: 'platform:fees',
    kind: 'platform_fees',
    ownerId: null,
    agentId: null,
  }),
  providerClearing: (provider: Provider): AccountRef => ({
    code: PAYMENT_PROVIDERS[provider].clearingAccount,
    kind: 'provider_clearing',
    ownerId: null,
    agentId: null,
  }),
};
