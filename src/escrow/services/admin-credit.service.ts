import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import type { AdminCreditRequest, AdminCreditResponse } from '../dtos/admin-credit.dto';
import { toAdminCredit, type AdminCreditRow } from '../ledger.rows';
import { centsToRmb } from '../money';
import { transactionId } from './agent-transactions';
import { Balances } from './balances';
import { Ledger } from './ledger';

export interface CreditResult {
  body: AdminCreditResponse;
  /** true when an earlier request with the same Idempotency-Key did the credit. */
  replayed: boolean;
}

/**
 * Operator credits: a manual deposit (money received outside the payment providers, e.g. a bank transfer) posted
 * through the ledger, with an audit row naming the operator. The Idempotency-Key makes the ledger reference
 * (`admin-credit:<agent>:<key>`), so any number of repeats, concurrent or not, credit once; without a key every call
 * is a new credit.
 */
@Injectable()
export class AdminCreditService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly ledger: Ledger,
    private readonly balances: Balances,
    private readonly clock: Clock,
  ) {}

  async credit(
    adminId: string,
    agentId: string,
    dto: AdminCreditRequest,
    idempotencyKey: string | undefined,
  ): Promise<CreditResult> {
    if (idempotencyKey !== undefined && (idempotencyKey.length < 1 || idempotencyKey.length > 255)) {
      throw ApiError.field('Idempotency-Key', 'must be 1 to 255 characters');
    }
    return inTransaction(this.ds, async (em) => {
      const agents = await sqlRows(em, `SELECT 1 FROM agents WHERE id = $1`, [agentId]);
      if (agents.length === 0) throw new ApiError('not_found', 'No agent with this id.');
      const reference = `admin-credit:${agentId}:${idempotencyKey ?? randomUUID()}`;
      const posted = await this.ledger.deposit(em, {
        agentId,
        amountCents: dto.amount_cents,
        provider: 'bank',
        reference,
        description: `Manual credit: ${dto.reason}`,
      });
      if (!posted.posted) return { body: await this.replay(em, reference, dto), replayed: true };
      const { availableCents } = await this.balances.agentFunds(agentId, em);
      const [row] = await sqlRows(
        em,
        `INSERT INTO admin_credits (journal_id, admin_id, agent_id, amount_cents, reason, idempotency_key,
                                    balance_after_cents, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        [
          posted.journalId,
          adminId,
          agentId,
          dto.amount_cents,
          dto.reason,
          idempotencyKey ?? null,
          availableCents,
          this.clock.now(),
        ],
      );
      return { body: toResponse(toAdminCredit(row)), replayed: false };
    });
  }

  /** The credit an earlier request with this key made; the same key with another amount or reason is a conflict. */
  private async replay(
    em: EntityManager,
    reference: string,
    dto: AdminCreditRequest,
  ): Promise<AdminCreditResponse> {
    const rows = await sqlRows(
      em,
      `SELECT c.* FROM admin_credits c JOIN ledger_journals j ON j.id = c.journal_id WHERE j.reference = $1`,
      [reference],
    );
    if (!rows[0]) throw new Error(`admin credit journal ${reference} has no audit row`);
    const row = toAdminCredit(rows[0]);
    if (row.amount_cents !== dto.amount_cents || row.reason !== dto.reason) {
      throw new ApiError(
        'idempotency_conflict',
        'This Idempotency-Key was already used for a credit with a different amount or reason.',
      );
    }
    return toResponse(row);
  }
}

function toResponse(row: AdminCreditRow): AdminCreditResponse {
  const balance = row.balance_after_cents;
  return {
    transaction_id: transactionId(row.journal_id),
    agent_id: row.agent_id,
    amount_cents: row.amount_cents,
    reason: row.reason,
    balance_cents: balance,
    balance_rmb: centsToRmb(balance),
    credited_by: row.admin_id,
    created_at: row.created_at,
  };
}
