import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { recordOperatorAction, type AuditActor } from '../../audit/operator-audit';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { requestHash } from '../../idempotency/canonical-json';
import { IdempotencyKeys } from '../../idempotency/idempotency-keys';
import type { HeldClaims } from '../../idempotency/idempotency-context';
import { idempotentTransaction } from '../../idempotency/idempotent-transaction';
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
 * through the ledger, with a credit row naming the operator and the operator audit log's entry, in its transaction. An Idempotency-Key makes it exactly-once: the key (scope
 * `admin_credit` among the credited agent's keys, kept for good) goes through IdempotencyKeys, and the credit runs in
 * an idempotentTransaction that stores its answer with the journal. Any number of repeats, concurrent or not, credit
 * once and answer the original body; the same key with another amount or reason is 409. The journal reference is
 * made from the key too, so even a lost key row could not credit twice. Without a key every call is a new credit.
 */
@Injectable()
export class AdminCreditService {
  constructor(
    private readonly ds: DataSource,
    private readonly ledger: Ledger,
    private readonly balances: Balances,
    private readonly keys: IdempotencyKeys,
    private readonly clock: Clock,
  ) {}

  async credit(
    who: AuditActor,
    agentId: string,
    dto: AdminCreditRequest,
    idempotencyKey: string | undefined,
  ): Promise<CreditResult> {
    if (idempotencyKey !== undefined && (idempotencyKey.length < 1 || idempotencyKey.length > 255)) {
      throw ApiError.field('Idempotency-Key', 'must be 1 to 255 characters');
    }
    // Before the key: its row belongs to the agent.
    const agents = await sqlRows(this.ds, `SELECT 1 FROM agents WHERE id = $1`, [agentId]);
    if (agents.length === 0) throw new ApiError('not_found', 'No agent with this id.');
    if (idempotencyKey === undefined) {
      return { body: await this.post(who, agentId, dto, null, []), replayed: false };
    }
    const outcome = await this.keys.run(
      {
        ref: { agentId, scope: 'admin_credit', key: idempotencyKey },
        name: 'Idempotency-Key',
        hash: creditHash(dto),
        successStatus: 201,
        keepRefusals: false,
        mismatch: () =>
          new ApiError(
            'idempotency_conflict',
            'This Idempotency-Key was already used for a credit with a different amount or reason.',
          ),
      },
      (claim) => this.post(who, agentId, dto, idempotencyKey, [claim]),
    );
    return { body: outcome.body as AdminCreditResponse, replayed: outcome.replayed };
  }

  /** A replayed key never gets here, so a credit has one audit entry however often it is repeated. */
  private post(
    who: AuditActor,
    agentId: string,
    dto: AdminCreditRequest,
    idempotencyKey: string | null,
    claims: HeldClaims,
  ): Promise<AdminCreditResponse> {
    return idempotentTransaction(this.ds, claims, async (em) => {
      const now = this.clock.now();
      const { journalId } = await this.ledger.manualCredit(em, {
        agentId,
        amountCents: dto.amount_cents,
        creditKey: idempotencyKey ?? randomUUID(),
        reason: dto.reason,
      });
      const { availableCents } = await this.balances.agentFunds(agentId, em);
      const [row] = await sqlRows(
        em,
        `INSERT INTO admin_credits (journal_id, admin_id, agent_id, amount_cents, reason, idempotency_key,
                                    balance_after_cents, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        [journalId, who.adminId, agentId, dto.amount_cents, dto.reason, idempotencyKey, availableCents, now],
      );
      const body = toResponse(toAdminCredit(row));
      await recordOperatorAction(
        em,
        who,
        {
          action: 'agent.credited',
          target: { type: 'agent', id: agentId },
          // Exact: this transaction's journal added the amount, and it holds the account's row until it commits.
          before: { balance_cents: availableCents - dto.amount_cents },
          after: {
            balance_cents: availableCents,
            amount_cents: dto.amount_cents,
            reason: dto.reason,
            transaction_id: body.transaction_id,
            idempotency_key: idempotencyKey,
          },
        },
        now,
      );
      return body;
    });
  }
}

/** What a credit's key guards: its amount and reason (the agent is the key's scope). */
export function creditHash(dto: AdminCreditRequest): string {
  return requestHash('admin-credit', { amount_cents: dto.amount_cents, reason: dto.reason });
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
