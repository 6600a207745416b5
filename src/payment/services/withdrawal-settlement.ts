import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { Logger } from '../../common/logging/logger';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { Ledger } from '../../escrow/services/ledger';
import { PaymentProviders } from '../providers/payment-providers';
import { ProviderError } from '../providers/provider-error';
import type { TransferState } from '../providers/provider.types';
import { toWithdrawal, type WithdrawalRow } from '../payment.repository';

/**
 * The payout half of a withdrawal: the transfer through the provider (Alipay fund.trans.uni.transfer, idempotent by
 * the withdrawal id) and where it ends. Success moves the money out of `withdrawing` (completeWithdrawal); failure
 * returns it to the worker's balance (failWithdrawal). Both are conditional UPDATEs from `processing` with
 * deterministic ledger references, so the request, a notification and reconciliation apply an outcome once. An
 * unknown outcome (timeout) leaves the withdrawal processing for reconciliation.
 */
@Injectable()
export class WithdrawalSettlement {
  constructor(
    private readonly ds: DataSource,
    private readonly ledger: Ledger,
    private readonly providers: PaymentProviders,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async transfer(w: WithdrawalRow): Promise<void> {
    const provider = this.providers.find(w.provider);
    if (!provider) return;
    try {
      const state = await provider.transfer({
        transferId: w.id,
        amountCents: w.amount_cents,
        payeeAccount: w.payee_account,
        payeeName: w.payee_name ?? undefined,
        remark: 'Legwork withdrawal',
      });
      await this.apply(w.id, state);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      this.logger.warn({ err, withdrawalId: w.id }, 'provider transfer failed');
      if (!err.outcomeUnknown) await this.fail(w.id, err.providerCode ?? err.kind);
    }
  }

  async apply(withdrawalId: string, state: TransferState | null): Promise<void> {
    if (!state) return;
    if (state.status === 'succeeded') await this.complete(withdrawalId, state.providerTransferId);
    else if (state.status === 'failed' || state.status === 'cancelled' || state.status === 'returned') {
      await this.fail(withdrawalId, state.failureReason ?? state.status);
    }
  }

  async complete(withdrawalId: string, providerTransferId: string | null): Promise<boolean> {
    return inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      const rows = await sqlRows(
        em,
        `UPDATE withdrawals SET status = 'completed', completed_at = $2, updated_at = $2,
                provider_transfer_id = COALESCE($3, provider_transfer_id)
          WHERE id = $1 AND status = 'processing' RETURNING *`,
        [withdrawalId, now, providerTransferId],
      );
      if (rows.length === 0) return false;
      const w = toWithdrawal(rows[0]);
      await this.ledger.completeWithdrawal(em, {
        workerId: w.worker_id,
        withdrawalId: w.id,
        amountCents: w.amount_cents,
        provider: w.provider,
        // The payee stays out of the append-only ledger: it may be a phone number, and deletion erases it.
        description: `Withdrawal ${w.id} paid to Alipay`,
      });
      return true;
    });
  }

  async fail(withdrawalId: string, reason: string): Promise<boolean> {
    return inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      const rows = await sqlRows(
        em,
        `UPDATE withdrawals SET status = 'failed', failure_reason = $3, updated_at = $2
          WHERE id = $1 AND status = 'processing' RETURNING *`,
        [withdrawalId, now, reason.slice(0, 200)],
      );
      if (rows.length === 0) return false;
      const w = toWithdrawal(rows[0]);
      await this.ledger.failWithdrawal(em, {
        workerId: w.worker_id,
        withdrawalId: w.id,
        amountCents: w.amount_cents,
        description: `Withdrawal ${w.id} failed (${reason}); returned to the balance`,
      });
      return true;
    });
  }
}
