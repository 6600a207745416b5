import type { PaymentProviderName as ConfiguredProvider } from '../config/payment-config';

/**
 * The payment providers and the methods they take, as one table: every list of provider names, methods and checkout
 * kinds elsewhere is derived from it (the payment module's validation and API enums, the ledger's clearing accounts,
 * the order and withdrawal rows), and `test/payment/provider-table.e2e-spec.ts` checks the database's CHECK
 * constraints against it. A new provider is a row here, a migration for the CHECKs, its client in
 * `src/payment/providers/` (the compiler asks for it where the table's online providers are listed) and its
 * settings in the config.
 *
 * Here rather than in the payment module because the ledger (escrow, a layer below payment) names each provider's
 * clearing account.
 */
interface ProviderRow {
  /** The payment_type values (checkout kinds) it offers; the first is used where a request names none. */
  readonly checkoutKinds: readonly string[];
  /** The ledger account of money in transit between this provider and the platform (it may go negative). */
  readonly clearingAccount: string;
  /** The service talks to it (checkout, queries, refunds, notifications); otherwise an operator confirms by hand. */
  readonly online: boolean;
  /** Workers' withdrawals are paid out through it. */
  readonly payouts: boolean;
}

export const PAYMENT_PROVIDERS = {
  alipay: {
    checkoutKinds: ['page', 'wap', 'qr'],
    clearingAccount: 'provider:alipay:clearing',
    online: true,
    payouts: true,
  },
  wechat: {
    checkoutKinds: ['native', 'jsapi', 'h5'],
    clearingAccount: 'provider:wechat:clearing',
    online: true,
    payouts: false,
  },
  bank: { checkoutKinds: [], clearingAccount: 'provider:bank:clearing', online: false, payouts: false },
} as const satisfies Record<string, ProviderRow>;

export type PaymentProviderName = keyof typeof PAYMENT_PROVIDERS;
type Row<P extends PaymentProviderName> = (typeof PAYMENT_PROVIDERS)[P];
/** The providers the service talks to. */
export type OnlineProviderName = {
  [P in PaymentProviderName]: Row<P>['online'] extends true ? P : never;
}[PaymentProviderName];
/** The providers workers are paid out through. */
export type PayoutProviderName = {
  [P in PaymentProviderName]: Row<P>['payouts'] extends true ? P : never;
}[PaymentProviderName];
export type CheckoutKind = Row<PaymentProviderName>['checkoutKinds'][number];

/**
 * The payment methods as the API names them, in the order it lists them, each with the provider that takes its money
 * and its name in words (ledger descriptions, messages).
 */
export const PAYMENT_METHOD_TABLE = {
  alipay: { provider: 'alipay', label: 'Alipay' },
  wechat: { provider: 'wechat', label: 'WeChat Pay' },
  // Alipay's cashier takes bank cards: the money settles with Alipay.
  card: { provider: 'alipay', label: 'card' },
  bank_transfer: { provider: 'bank', label: 'bank transfer' },
} as const satisfies Record<string, { provider: PaymentProviderName; label: string }>;

export type PaymentMethod = keyof typeof PAYMENT_METHOD_TABLE;

export const PAYMENT_PROVIDER_NAMES = Object.keys(PAYMENT_PROVIDERS) as PaymentProviderName[];
export const ONLINE_PROVIDER_NAMES = PAYMENT_PROVIDER_NAMES.filter(
  (p): p is OnlineProviderName => PAYMENT_PROVIDERS[p].online,
);
export const PAYMENT_METHODS = Object.keys(PAYMENT_METHOD_TABLE) as PaymentMethod[];
/** Every checkout kind, provider by provider. */
export const CHECKOUT_KINDS: CheckoutKind[] = PAYMENT_PROVIDER_NAMES.flatMap(
  (p) => PAYMENT_PROVIDERS[p].checkoutKinds,
);

/** The provider that takes a method's money. */
export function providerOf(method: PaymentMethod): PaymentProviderName {
  return PAYMENT_METHOD_TABLE[method].provider;
}

/** The checkout kinds a method offers (those of its provider); none for a method an operator confirms. */
export function checkoutKindsOf(method: PaymentMethod): readonly CheckoutKind[] {
  return PAYMENT_PROVIDERS[providerOf(method)].checkoutKinds;
}

/** The checkout a request gets when it names none; null for a method without a checkout. */
export function defaultCheckout(method: PaymentMethod): CheckoutKind | null {
  return checkoutKindsOf(method)[0] ?? null;
}

/** Whether the service talks to this provider (an online one) or an operator confirms its payments. */
export function isOnline(provider: PaymentProviderName): provider is OnlineProviderName {
  return PAYMENT_PROVIDERS[provider].online;
}

/**
 * The config's provider settings (PAYMENT_PROVIDERS, one credentials block each) name exactly the online providers:
 * the config sits below this table and cannot import it, so the two lists are held together here at compile time.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _configNamesTheOnlineProviders: Same<OnlineProviderName, ConfiguredProvider> = true;
