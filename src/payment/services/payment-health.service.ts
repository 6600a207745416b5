import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import type {
  PaymentHealthResponse,
  ProviderHealthView,
  ProvidersResponse,
} from '../dtos/payment-health.dto';
import { PaymentProviders } from '../providers/payment-providers';

/** The public answer is reused this long, so an anonymous caller cannot turn it into a stream of provider calls. */
const PUBLIC_CACHE_MS = 15_000;

/**
 * Provider reachability: one signed round trip per enabled provider (probe(), a query for an order that does not
 * exist), run in parallel. The public view hides error details and is cached briefly; the operator view is always
 * fresh and shows errors and latency.
 */
@Injectable()
export class PaymentHealthService {
  private cached: { at: number; value: PaymentHealthResponse } | null = null;

  constructor(
    private readonly providers: PaymentProviders,
    private readonly clock: Clock,
  ) {}

  list(): ProvidersResponse {
    const providers = this.providers.enabled();
    return { providers, default: providers[0] ?? null };
  }

  async publicHealth(): Promise<PaymentHealthResponse> {
    const now = this.clock.now().getTime();
    if (this.cached && now - this.cached.at < PUBLIC_CACHE_MS) return this.cached.value;
    const full = await this.check();
    const providers: Record<string, ProviderHealthView> = {};
    for (const [name, view] of Object.entries(full.providers)) {
      providers[name] =
        view.status === 'available' ? { status: view.status } : { status: view.status, error: 'unreachable' };
    }
    const value = { ...full, providers };
    this.cached = { at: now, value };
    return value;
  }

  async check(): Promise<PaymentHealthResponse> {
    const names = this.providers.enabled();
    const views = await Promise.all(
      names.map(async (name): Promise<[string, ProviderHealthView]> => {
        const started = Date.now();
        const result = await this.providers.find(name)!.probe();
        const latency_ms = Date.now() - started;
        return [
          name,
          result.ok
            ? { status: 'available', latency_ms }
            : { status: 'unavailable', error: result.error, latency_ms },
        ];
      }),
    );
    const available = views.filter(([, v]) => v.status === 'available').map(([n]) => n);
    return {
      status: available.length === names.length && names.length > 0 ? 'ok' : 'degraded',
      providers: Object.fromEntries(views),
      available_providers: available,
      total_providers: names.length,
      available_count: available.length,
      checked_at: this.clock.now(),
    };
  }
}
