import type { CheckoutKind, OnlineProviderName } from '../../common/payment-providers';

export type { CheckoutKind } from '../../common/payment-providers';

/**
 * What the payment service needs from an online payment provider, one small interface per capability, with results
 * normalised so the service does not care which provider it talks to. Amounts are integer cents (fen), times Dates.
 * Ids: `orderId` is the merchant order number (out_trade_no), `refundId` the merchant refund number, `transferId`
 * the merchant transfer number; the provider's own ids are the `provider*Id` fields.
 */
/** A provider the service talks to (the table's online providers: `common/payment-providers.ts`). */
export type ProviderName = OnlineProviderName;

export interface CreateOrderInput {
  /** At most 32 characters of [0-9A-Za-z_-] so it suits both providers. */
  readonly orderId: string;
  readonly amountCents: number;
  /** Shown to the payer (Alipay subject, WeChat description). */
  readonly subject: string;
  readonly expiresAt: Date;
  /** page and wap: where the buyer's browser returns to after paying. */
  readonly returnUrl?: string;
  /** jsapi: the payer's openid under our appid. */
  readonly openid?: string;
  /** h5: the payer's IP address. */
  readonly clientIp?: string;
}

/** Parameters for wx.requestPayment, signed with the merchant key. */
export interface JsapiParams {
  readonly appId: string;
  readonly timeStamp: string;
  readonly nonceStr: string;
  readonly package: string;
  readonly signType: 'RSA';
  readonly paySign: string;
}

export interface CreatedOrder {
  readonly provider: ProviderName;
  readonly kind: CheckoutKind;
  readonly orderId: string;
  /** Content of the QR code to show (qr, native). */
  readonly qrCodeUrl: string | null;
  /** Where to send the buyer (page, wap, h5). */
  readonly paymentUrl: string | null;
  readonly jsapiParams: JsapiParams | null;
}

/** pending: not paid yet; paid (refunds may follow); closed: ended unpaid; failed: the payment attempt failed. */
export type OrderStatus = 'pending' | 'paid' | 'closed' | 'failed';

export interface OrderState {
  readonly orderId: string;
  readonly providerTxnId: string | null;
  readonly status: OrderStatus;
  readonly amountCents: number;
  readonly paidAt: Date | null;
  /** The provider reports refunds against this order. */
  readonly refunded: boolean;
}

export interface RefundInput {
  readonly orderId: string;
  /** Merchant refund number; the same number makes a retry idempotent. */
  readonly refundId: string;
  readonly amountCents: number;
  /** The order's full amount (WeChat needs it). */
  readonly orderAmountCents: number;
  readonly reason: string;
}

export type RefundStatus = 'processing' | 'succeeded' | 'failed';

export interface RefundState {
  readonly orderId: string;
  readonly refundId: string;
  readonly providerRefundId: string | null;
  readonly amountCents: number;
  readonly status: RefundStatus;
  readonly succeededAt: Date | null;
}

export interface TransferInput {
  /** Merchant transfer number: at most 32 letters and digits (WeChat allows nothing else). */
  readonly transferId: string;
  readonly amountCents: number;
  /** Alipay: the payee's login id (email or phone); WeChat: the payee's openid. */
  readonly payeeAccount: string;
  /** The payee's real name: required by Alipay for login ids, by WeChat from 2000 yuan. */
  readonly payeeName?: string;
  readonly remark: string;
}

/** waiting_payee: WeChat waits for the payee to accept; returned: completed, then bounced back (Alipay). */
export type TransferStatus =
  'processing' | 'waiting_payee' | 'succeeded' | 'failed' | 'cancelled' | 'returned';

export interface TransferState {
  readonly transferId: string;
  readonly providerTransferId: string | null;
  readonly amountCents: number | null;
  readonly status: TransferStatus;
  readonly failureReason: string | null;
  /** WeChat: what the payee's client needs to confirm (package_info). */
  readonly packageInfo: string | null;
}

/** The checkout kinds a provider offers are its row of the provider table (`common/payment-providers.ts`). */
export interface CheckoutProvider {
  readonly name: ProviderName;
  createOrder(kind: CheckoutKind, input: CreateOrderInput): Promise<CreatedOrder>;
  /** null when the provider does not know the order (for Alipay page/wap: the buyer never opened it). */
  queryOrder(orderId: string): Promise<OrderState | null>;
  /** Closes an unpaid order; throws ProviderError `rejected` when it is already paid. */
  closeOrder(orderId: string): Promise<void>;
}

export interface RefundProvider {
  refund(input: RefundInput): Promise<RefundState>;
  queryRefund(orderId: string, refundId: string): Promise<RefundState | null>;
}

export interface PayoutProvider {
  transfer(input: TransferInput): Promise<TransferState>;
  queryTransfer(transferId: string): Promise<TransferState | null>;
}

export interface HealthProbe {
  /** One signed round trip to the provider; never throws. */
  probe(): Promise<{ ok: true } | { ok: false; error: string }>;
}

export type PaymentProvider = CheckoutProvider &
  RefundProvider &
  PayoutProvider &
  NotificationVerifier &
  HealthProbe;

// ---- notifications ----

interface NotificationBase {
  readonly provider: ProviderName;
  /** The provider's id of this notification (same on every redelivery where the provider keeps one). */
  readonly eventId: string;
  /** The app id (Alipay) or merchant id (WeChat) the provider addressed, already checked against ours. */
  readonly appOrMerchantId: string;
}

export interface PaymentNotification extends NotificationBase {
  readonly kind: 'payment';
  readonly orderId: string;
  readonly providerTxnId: string;
  readonly amountCents: number;
  readonly status: OrderStatus;
  readonly paidAt: Date | null;
}

export interface RefundNotification extends NotificationBase {
  readonly kind: 'refund';
  readonly orderId: string;
  readonly refundId: string;
  readonly providerRefundId: string | null;
  /** This refund's amount (WeChat); null where the provider only reports the running total (Alipay). */
  readonly amountCents: number | null;
  readonly totalRefundedCents: number | null;
  readonly status: RefundStatus;
}

export interface TransferNotification extends NotificationBase {
  readonly kind: 'transfer';
  readonly transferId: string;
  readonly providerTransferId: string;
  readonly amountCents: number;
  readonly status: TransferStatus;
  readonly failureReason: string | null;
}

export type ProviderNotification = PaymentNotification | RefundNotification | TransferNotification;

export type NotificationFailureCode =
  | 'malformed'
  | 'invalid_signature'
  | 'signature_probe'
  | 'stale_timestamp'
  | 'stale_notification'
  | 'unknown_key'
  | 'decrypt_failed'
  | 'app_mismatch'
  | 'amount_mismatch'
  | 'unknown_reference'
  | 'unsupported_event';

export interface NotificationFailure {
  readonly code: NotificationFailureCode;
  readonly message: string;
  readonly expectedAmountCents?: number;
  readonly actualAmountCents?: number;
}

export type NotificationResult =
  | { readonly ok: true; readonly notification: ProviderNotification }
  | { readonly ok: false; readonly failure: NotificationFailure };

export interface RawNotification {
  readonly rawBody: Buffer | string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * The amount the service expects for what a notification is about (the order's amount for a payment, the refund's
 * for a refund, the transfer's for a transfer); null when the service does not know it (`unknown_reference`).
 */
export type ExpectedAmount = (notification: ProviderNotification) => Promise<number | null> | number | null;

/** How to answer the provider: Alipay wants plain `success`/`failure`, WeChat an HTTP status and JSON. */
export interface NotificationAck {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

export interface NotificationVerifier {
  /**
   * Verifies a notification exactly as received (raw body bytes and headers): signature, freshness, our app or
   * merchant id and, when `expected` is given, the amount. Never throws for bad input; returns a typed failure.
   */
  verifyNotification(input: RawNotification, expected?: ExpectedAmount): Promise<NotificationResult>;
  acknowledge(result: NotificationResult): NotificationAck;
  /**
   * The answer, in the provider's own form, that makes it deliver a notification again: one verified but not
   * applied (`status` 500: the database is away), or one for a provider not enabled here (404). Alipay reads only the
   * body (`failure`); WeChat Pay the status and a FAIL body.
   */
  refuse(message: string, status: number): NotificationAck;
}
