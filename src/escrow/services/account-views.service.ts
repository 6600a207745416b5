import { Injectable } from '@nestjs/common';
import { instantRange } from '../../common/dates';
import { AgentTransactions, TransactionStatus, TransactionType } from './agent-transactions';
import { Balances } from './balances';
import type { AgentBalanceResponse, BalanceResponse, WorkerBalanceResponse } from '../dtos/balance.dto';
import type {
  AgentTransactionsQuery,
  PaginatedTransactions,
  ReferenceTransactionsQuery,
  TransactionPage,
} from '../dtos/transactions.dto';
import { centsToRmb, LEDGER_CURRENCY } from '../money';

/** The response shapes of the balance and transaction routes on each surface, over the shared read services. */
@Injectable()
export class AccountViewsService {
  constructor(
    private readonly balances: Balances,
    private readonly transactions: AgentTransactions,
  ) {}

  async shortBalance(agentId: string): Promise<BalanceResponse> {
    const { availableCents, owedCents } = await this.balances.agentFunds(agentId);
    return { balance_cents: availableCents, balance_rmb: centsToRmb(availableCents), owed_cents: owedCents };
  }

  async fullBalance(agentId: string): Promise<AgentBalanceResponse> {
    const b = await this.balances.agentBalance(agentId);
    return {
      balance_cents: b.availableCents,
      balance_rmb: centsToRmb(b.availableCents),
      owed_cents: b.owedCents,
      currency: LEDGER_CURRENCY,
      escrow_cents: b.escrowCents,
      escrow_rmb: centsToRmb(b.escrowCents),
      lifetime_spent_cents: b.lifetimeSpentCents,
      lifetime_spent_rmb: centsToRmb(b.lifetimeSpentCents),
      last_updated: b.lastUpdated,
    };
  }

  async workerBalance(workerId: string): Promise<WorkerBalanceResponse> {
    const w = await this.balances.workerFunds(workerId);
    return {
      balance_cents: w.availableCents,
      balance_rmb: centsToRmb(w.availableCents),
      withdrawing_cents: w.withdrawingCents,
      withdrawing_rmb: centsToRmb(w.withdrawingCents),
      currency: LEDGER_CURRENCY,
    };
  }

  async offsetPage(agentId: string, q: AgentTransactionsQuery): Promise<PaginatedTransactions> {
    const range = instantRange(q.start_date, q.end_date);
    const { rows, total } = await this.transactions.page(agentId, range, q.skip, q.limit);
    return { data: rows, total, skip: q.skip, limit: q.limit, has_more: q.skip + rows.length < total };
  }

  async cursorPage(agentId: string, q: ReferenceTransactionsQuery): Promise<TransactionPage> {
    const page = await this.transactions.cursorPage(
      agentId,
      {
        types: q.type === 'all' ? undefined : [q.type as TransactionType],
        statuses: q.status === 'all' ? undefined : [q.status as TransactionStatus],
      },
      q.limit,
      q.starting_after,
    );
    return { data: page.rows, has_more: page.hasMore, next_cursor: page.nextCursor };
  }
}
