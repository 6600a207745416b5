import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { UrlSafety } from '../../events/url-safety/url-safety';
import { TaskRepository, type TaskRow } from '../../task/task.repository';
import type {
  CostBreakdownView,
  ReferenceCreateOrderRequest,
  ReferenceOrderResponse,
  ReferenceOrderStatusResponse,
} from '../dtos/payment-reference.dto';
import { defaultCheckout } from '../../common/payment-providers';
import { fxRateMicros, LIMITS, usdCentsFor, usdToCnyCents } from '../payment-rules';
import { referenceOrderView, referenceStatusView } from '../payment-views';
import { OrderCreation } from './order-creation';
import { OrderSettlement } from './order-settlement';
import { ownOrder, requireHttpsInLive } from './payment-orders.service';

/**
 * The reference payment surface (`/api/v1/payment/*`): an order pays for one task. Its amount must be the task's
 * cost (USD converted at FX_USD_CNY), one open or completed order per task, and on completion the CNY amount
 * credits the agent's balance as a deposit carrying the task id.
 */
@Injectable()
export class ReferencePaymentsService {
  constructor(
    private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly creation: OrderCreation,
    private readonly settlement: OrderSettlement,
    private readonly urlSafety: UrlSafety,
  ) {}

  async create(agentId: string, dto: ReferenceCreateOrderRequest): Promise<ReferenceOrderResponse> {
    requireHttpsInLive(this.config, 'return_url', dto.return_url);
    // The server itself posts to callback_url, so it obeys the webhook endpoints' address rules (live: https and
    // public addresses only, every resolved address checked); delivery checks again before each connection.
    const callbackUrl = dto.callback_url
      ? await this.urlSafety.assertRegistrable(dto.callback_url, 'callback_url')
      : null;
    const task = await this.task(agentId, dto.task_id);
    const total = Number(task.total_cents);
    const rate = dto.currency === 'USD' ? fxRateMicros(this.config.fxUsdCny) : null;
    const expected = rate === null ? total : usdCentsFor(total, rate);
    if (dto.amount !== expected) {
      throw new ApiError('amount_mismatch', "The amount does not equal the task's cost.", {
        expected_amount: expected,
        provided_amount: dto.amount,
        currency: dto.currency,
      });
    }
    const order = await this.creation.create({
      agentId,
      taskId: dto.task_id,
      amountCents: dto.amount,
      currency: dto.currency,
      fxRateMicros: rate,
      providerAmountCents: rate === null ? dto.amount : usdToCnyCents(dto.amount, rate),
      method: dto.payment_method,
      // The reference body has no payment_type: the provider's first checkout (page for Alipay and cards, QR code
      // for WeChat Pay), none for a bank transfer.
      type: defaultCheckout(dto.payment_method),
      minCents: LIMITS.paymentMinCents,
      expiresInSeconds: dto.expires_in_seconds ?? LIMITS.expiresDefaultSeconds,
      returnUrl: dto.return_url,
      callbackUrl,
      metadata: dto.metadata ?? {},
    });
    return referenceOrderView(order);
  }

  async query(agentId: string, orderId: string): Promise<ReferenceOrderStatusResponse> {
    const order = await this.settlement.syncFromProvider(await ownOrder(this.ds, agentId, orderId));
    let cost: CostBreakdownView | null = null;
    if (order.task_id) {
      const t = await this.task(agentId, order.task_id);
      cost = {
        worker_payout_cents: t.payout_cents * t.max_workers,
        platform_fee_cents: t.fee_cents * t.max_workers,
        total_cents: t.total_cents,
      };
    }
    return referenceStatusView(order, cost);
  }

  private async task(agentId: string, taskId: string): Promise<TaskRow> {
    const task = await TaskRepository.findOwned(this.ds, agentId, taskId);
    if (!task) throw new ApiError('task_not_found', 'No task with this id.');
    return task;
  }
}
