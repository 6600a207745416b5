import { Inject, Injectable, Module } from '@nestjs/common';
import {
  ONLINE_PROVIDER_NAMES,
  type OnlineProviderName,
  type PaymentProviderName,
} from '../../common/payment-providers';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import type { PaymentSettings } from '../../config/payment-config';
import { alipayRefusal } from './alipay.notifications';
import { AlipayProvider } from './alipay.provider';
import type { NotificationVerifier, PaymentProvider } from './provider.types';
import { wechatRefusal } from './wechat.notifications';
import { WechatPayProvider } from './wechat.provider';

/**
 * Each online provider of the table (common/payment-providers.ts): its client, made when its settings are there
 * (PAYMENT_PROVIDERS), and how its protocol refuses a notification, which it may send whether or not it is enabled.
 * A provider added to the table as online does not compile until it has its row here.
 */
const CLIENTS: {
  readonly [P in OnlineProviderName]: {
    create(settings: PaymentSettings): PaymentProvider | null;
    refuse: NotificationVerifier['refuse'];
  };
} = {
  alipay: {
    create: (s) => (s.alipay ? new AlipayProvider(s.alipay, s.requestTimeoutMs) : null),
    refuse: alipayRefusal,
  },
  wechat: {
    create: (s) => (s.wechat ? new WechatPayProvider(s.wechat, s.requestTimeoutMs) : null),
    refuse: wechatRefusal,
  },
};

/**
 * The enabled payment providers (those PAYMENT_PROVIDERS names), built once from config, in the table's order. In
 * sandbox mode they point at the provider sandbox; in live mode at the real providers; the code is the same.
 */
export function createPaymentProviders(settings: PaymentSettings): Map<PaymentProviderName, PaymentProvider> {
  const providers = new Map<PaymentProviderName, PaymentProvider>();
  for (const name of ONLINE_PROVIDER_NAMES) {
    const client = CLIENTS[name].create(settings);
    if (client) providers.set(name, client);
  }
  return providers;
}

@Injectable()
export class PaymentProviders {
  private readonly providers: Map<PaymentProviderName, PaymentProvider>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.providers = createPaymentProviders(config.payments);
  }

  /** Providers enabled by PAYMENT_PROVIDERS, in the table's order. */
  enabled(): OnlineProviderName[] {
    return [...this.providers.values()].map((p) => p.name);
  }

  /**
   * The client of a provider, or null: not enabled here, or a provider the service does not talk to (a bank
   * transfer, which an operator confirms).
   */
  find(name: PaymentProviderName): PaymentProvider | null {
    return this.providers.get(name) ?? null;
  }

  /** Who refuses a notification in `name`'s protocol: its client, or for a provider not enabled here, its form. */
  refuser(name: OnlineProviderName): Pick<NotificationVerifier, 'refuse'> {
    return this.find(name) ?? CLIENTS[name];
  }
}

@Module({ providers: [PaymentProviders], exports: [PaymentProviders] })
export class PaymentProvidersModule {}
