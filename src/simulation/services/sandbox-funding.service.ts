import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AgentActor } from '../../common/actor';
import { ApiError } from '../../common/errors/api-error';
import { Balances } from '../../escrow/services/balances';
import { LIMITS } from '../../payment/payment-rules';
import { findOrder, type OrderRow } from '../../payment/payment.repository';
import { OrderCreation } from '../../payment/services/order-creation';
import { OrderSettlement } from '../../payment/services/order-settlement';
import type { SandboxBalanceRequest, SandboxBalanceResponse } from '../dtos/sandbox-balance.dto';
import { ProviderSandboxClient } from './provider-sandbox-client';

/** How long funding waits for the provider's notification before asking the provider itself. */
const NOTIFICATION_WAIT_MS = 3_000;
const POLL_MS = 50;

/**
 * `POST /v1/sandbox/balance`: test money at once, by the same road as real money. A recharge order is created with
 * the provider sandbox (Alipay, QR checkout), the sandbox's buyer pays it, and the provider's signed notification
 * settles it through OrderSettlement, which credits the balance with a normal recharge journal
 * (`provider:alipay:clearing` to `agent:A:available`). Should the notification be slow, the order is settled from
 * the provider's signed query answer instead (the notification that follows is then a duplicate, which settlement
 * ignores). Nothing here writes the ledger: the ledger check sees sandbox money like any other.
 */
@Injectable()
export class SandboxFundingService {
  constructor(
    private readonly ds: DataSource,
    private readonly creation: OrderCreation,
    private readonly settlement: OrderSettlement,
    private readonly sandbox: ProviderSandboxClient,
    private readonly balances: Balances,
  ) {}

  async fund(actor: AgentActor, dto: SandboxBalanceRequest): Promise<SandboxBalanceResponse> {
    const order = await this.creation.create({
      agentId: actor.id,
      taskId: null,
      amountCents: dto.amount_cents,
      currency: 'CNY',
      fxRateMicros: null,
      providerAmountCents: dto.amount_cents,
      method: 'alipay',
      type: 'qr',
      minCents: LIMITS.rechargeMinCents,
      expiresInSeconds: LIMITS.expiresDefaultSeconds,
      returnUrl: null,
      callbackUrl: null,
      metadata: { sandbox_funding: true },
    });
    await this.sandbox.payAlipayOrder(order.id);
    const settled = await this.settled(order);
    if (settled.status !== 'completed') {
      throw new ApiError('provider_error', `The sandbox order ended ${settled.status}, not paid.`, {
        order_id: order.id,
        retry_allowed: true,
      });
    }
    const funds = await this.balances.agentFunds(actor.id);
    return {
      order_id: settled.id,
      amount_cents: settled.amount_cents,
      status: settled.status,
      balance_cents: funds.availableCents,
      balance_rmb: funds.availableCents / 100,
    };
  }

  private async settled(order: OrderRow): Promise<OrderRow> {
    const until = Date.now() + NOTIFICATION_WAIT_MS;
    while (Date.now() < until) {
      const current = (await findOrder(this.ds, order.id))!;
      if (current.status !== 'pending' && current.status !== 'processing') return current;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return this.settlement.syncFromProvider((await findOrder(this.ds, order.id))!);
  }
}
