import { Injectable } from '@nestjs/common';

/**
 * The one place the agent account reads an agent's available balance. Until the ledger (EscrowModule) exists every
 * agent has 0; the ledger issue replaces this body with the ledger lookup, and every response follows.
 */
@Injectable()
export class AgentBalanceService {
  async availableCents(_agentId: string): Promise<number> {
    return 0;
  }
}
