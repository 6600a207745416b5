import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';

const TIMEOUT_MS = 5_000;

/**
 * The provider sandbox's test API (`/__sandbox/` on the Alipay sandbox port), spoken over HTTP like any client of it:
 * the simulation never imports the sandbox's code (it runs as its own process). Used only in sandbox mode, where the
 * Alipay gateway in the configuration is the provider sandbox.
 */
@Injectable()
export class ProviderSandboxClient {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The buyer pays the order at the provider, which then notifies the service (signed) as it would in production. */
  async payAlipayOrder(orderId: string): Promise<void> {
    const gateway = this.config.payments.alipay?.gatewayUrl;
    if (!gateway) throw unavailable(orderId, 'Alipay is not enabled on this server');
    let res: Response;
    try {
      res = await fetch(`${new URL(gateway).origin}/__sandbox/orders/${encodeURIComponent(orderId)}/pay`, {
        method: 'POST',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      throw unavailable(orderId, 'the provider sandbox did not answer');
    }
    const body = (await res.json().catch(() => ({}))) as { outcome?: string };
    if (res.status !== 200 || body.outcome !== 'succeeded') {
      throw unavailable(orderId, `the provider sandbox refused the payment (${res.status})`);
    }
  }
}

function unavailable(orderId: string, why: string): ApiError {
  return new ApiError('provider_error', `The sandbox payment could not be made: ${why}.`, {
    order_id: orderId,
    retry_allowed: true,
  });
}
