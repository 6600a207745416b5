import { Module } from '@nestjs/common';
import { LedgerService } from './ledger.service';

/** Owns money: the double-entry ledger, the fee policy and the invariant check. */
@Module({
  providers: [LedgerService],
  exports: [LedgerService],
})
export class EscrowModule {}
