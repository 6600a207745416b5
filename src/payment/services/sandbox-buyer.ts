import { Inject, Injectable } from '@nestjs/common';
import { Logger } from '../../common/logging/logger';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';

/** How long the simulated browser waits for the provider sandbox's cashier redirect. */
const OPEN_TIMEOUT_MS = 5_000;

/**
 * Sandbox mode only (product-decisions §12): plays the buyer's browser for Alipay page and wap payments. Such a payment is a
 * signed URL; the provider learns of the order only when a browser opens it. In the sandbox nobody may ever open it
 * (an agent polling for its balance has no browser), so the order would never start the provider sandbox's
 * 5-second automatic completion. Opening the URL right after creation makes every sandbox order pay itself 5
 * seconds later unless someone declines it or pays it by hand on the cashier page the same URL leads to. Live mode
 * never opens anything: there a real buyer does.
 */
@Injectable()
export class SandboxBuyer {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly logger: Logger,
  ) {}

  get enabled(): boolean {
    return this.config.paymentMode === 'sandbox';
  }

  /**
   * GETs the payment URL like a browser (without following the redirect to the cashier page). A failure is logged,
   * not thrown: the order exists on our side and whoever opens the URL later still pays it.
   */
  async open(orderId: string, paymentUrl: string): Promise<void> {
    if (!this.enabled) return;
    try {
      const res = await fetch(paymentUrl, {
        redirect: 'manual',
        signal: AbortSignal.timeout(OPEN_TIMEOUT_MS),
      });
      await res.arrayBuffer();
      if (res.status !== 302 && res.status !== 303) {
        this.logger.warn({ orderId, status: res.status }, 'sandbox buyer: the payment URL was refused');
      }
    } catch (err) {
      this.logger.warn({ err, orderId }, 'sandbox buyer: could not open the payment URL');
    }
  }
}
