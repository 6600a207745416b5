import { Inject, Injectable, Module } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import type { PaymentSettings } from '../../config/payment-config';
import { AlipayProvider } from './alipay.provider';
import type { PaymentProvider, ProviderName } from './provider.types';
import { WechatPayProvider } from './wechat.provider';

/**
 * The enabled payment providers, built once from config. In sandbox mode they point at the provider sandbox; in
 * live mode at the real providers; the code is the same.
 */
export function createPaymentProviders(settings: PaymentSettings): Map<ProviderName, PaymentProvider> {
  const providers = new Map<ProviderName, PaymentProvider>();
  if (settings.alipay)
    providers.set('alipay', new AlipayProvider(settings.alipay, settings.requestTimeoutMs));
  if (settings.wechat)
    providers.set('wechat', new WechatPayProvider(settings.wechat, settings.requestTimeoutMs));
  return providers;
}

@Injectable()
export class PaymentProviders {
  private readonly providers: Map<ProviderName, PaymentProvider>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.providers = createPaymentProviders(config.payments);
  }

  /** Providers enabled by PAYMENT_PROVIDERS, in configured order. */
  enabled(): ProviderName[] {
    return [...this.providers.keys()];
  }

  /** null when the provider is not enabled. */
  find(name: ProviderName): PaymentProvider | null {
    return this.providers.get(name) ?? null;
  }
}

@Module({ providers: [PaymentProviders], exports: [PaymentProviders] })
export class PaymentProvidersModule {}
