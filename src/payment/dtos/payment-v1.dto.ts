import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsIP,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { NOT_BLANK } from '../../common/http/validators';
import {
  LIMITS,
  ORDER_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_TYPES,
  PROVIDER_METHODS,
  type OrderStatus,
  type PaymentMethod,
  type PaymentType,
  type ProviderMethod,
} from '../payment-rules';

/** http(s) URLs; hosts without a dot (localhost) are allowed here and refused in live mode by the service. */
export const URL_RULE = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

export class RechargeRequest {
  @ApiProperty({
    type: 'integer',
    minimum: LIMITS.rechargeMinCents,
    maximum: LIMITS.paymentMaxCents,
    example: 10000,
    description:
      'CNY cents. The recharge endpoint takes 100 cents (1 RMB) and up; other payments 1000 and up.',
  })
  @IsInt()
  @Min(LIMITS.rechargeMinCents)
  @Max(LIMITS.paymentMaxCents)
  amount_cents: number;

  @ApiPropertyOptional({
    description: "Where the payer's browser returns after paying (default PAYMENT_RETURN_URL).",
  })
  @IsOptional()
  @IsUrl(URL_RULE)
  @Length(1, 1000)
  return_url?: string;
}

export class CreatePaymentRequest {
  @ApiProperty({
    type: 'integer',
    minimum: LIMITS.paymentMinCents,
    maximum: LIMITS.paymentMaxCents,
    example: 10000,
  })
  @IsInt()
  @Min(LIMITS.paymentMinCents)
  @Max(LIMITS.paymentMaxCents)
  amount_cents: number;

  @ApiProperty({ enum: PROVIDER_METHODS, description: 'alipay (provider A) or wechat (provider B).' })
  @IsIn(PROVIDER_METHODS)
  payment_method: ProviderMethod;

  @ApiPropertyOptional({
    enum: PAYMENT_TYPES,
    description:
      'alipay: page (PC web, default), wap (mobile web), qr (QR code); wechat: native (QR code, default), ' +
      'jsapi (in-app, needs openid), h5 (mobile web, needs client_ip).',
  })
  @IsOptional()
  @IsIn(PAYMENT_TYPES)
  payment_type?: PaymentType;

  @ApiPropertyOptional({ description: "Required for jsapi: the payer's openid under our WeChat app." })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  openid?: string;

  @ApiPropertyOptional({
    maxLength: 45,
    example: '203.0.113.7',
    description: "Required for h5: the payer's IP address (IPv4 or IPv6).",
  })
  @IsOptional()
  @IsIP()
  @MaxLength(45)
  client_ip?: string;

  @ApiPropertyOptional({ description: 'page and wap: where the browser returns after paying.' })
  @IsOptional()
  @IsUrl(URL_RULE)
  @Length(1, 1000)
  return_url?: string;
}

export class JsapiParamsView {
  @ApiProperty() appId: string;
  @ApiProperty() timeStamp: string;
  @ApiProperty() nonceStr: string;
  @ApiProperty() package: string;
  @ApiProperty({ enum: ['RSA'] }) signType: string;
  @ApiProperty() paySign: string;
}

export class PaymentOrderResponse {
  @ApiProperty({ example: 'pay_4hT2t0cQyq3oP6mZ1e8RkA9w' }) order_id: string;
  @ApiProperty({ type: 'integer' }) amount_cents: number;
  @ApiProperty({ enum: ORDER_STATUSES }) status: OrderStatus;
  @ApiProperty({ enum: PAYMENT_METHODS }) payment_method: PaymentMethod;
  @ApiProperty({ enum: PAYMENT_TYPES, nullable: true }) payment_type: PaymentType | null;
  @ApiProperty({ type: String, nullable: true, description: 'QR code content (qr, native).' })
  qr_code_url: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Where to send the payer (page, wap, h5).' })
  payment_url: string | null;
  @ApiProperty({
    type: JsapiParamsView,
    nullable: true,
    description: 'jsapi: parameters for wx.requestPayment.',
  })
  jsapi_params: JsapiParamsView | null;
  @ApiProperty({ type: String, format: 'date-time' }) expires_at: Date;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
}

export class PaymentQuery {
  @ApiProperty({ enum: PAYMENT_METHODS, description: "The order's payment method." })
  @IsIn(PAYMENT_METHODS)
  payment_method: PaymentMethod;
}

export class PaymentStatusResponse extends PaymentOrderResponse {
  @ApiProperty({ type: String, nullable: true, description: "The provider's transaction id once paid." })
  transaction_id: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) paid_at: Date | null;
  @ApiProperty({ type: 'integer', description: 'Refunded so far (requested and not failed).' })
  refunded_cents: number;
}

export class RefundRequest {
  @ApiProperty() @IsString() @Length(1, 64) order_id: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: LIMITS.paymentMaxCents,
    description: 'At most what is left of the payment.',
  })
  @IsInt()
  @Min(1)
  @Max(LIMITS.paymentMaxCents)
  refund_amount_cents: number;

  @ApiProperty({
    maxLength: 500,
    description: 'task_cancelled, quality_issue, task_failed, duplicate_payment, other, or free text.',
  })
  @IsString()
  @Length(1, 500)
  @Matches(NOT_BLANK, { message: 'must not be blank' })
  refund_reason: string;

  @ApiPropertyOptional({
    enum: PAYMENT_METHODS,
    description: "When sent, must be the order's payment method.",
  })
  @IsOptional()
  @IsIn(PAYMENT_METHODS)
  payment_method?: PaymentMethod;
}

export class RefundResponse {
  @ApiProperty() refund_id: string;
  @ApiProperty() order_id: string;
  @ApiProperty({ type: 'integer' }) refund_amount_cents: number;
  @ApiProperty({ enum: ['processing', 'completed', 'failed'] }) status: string;
  @ApiProperty({ enum: PAYMENT_METHODS }) payment_method: PaymentMethod;
  @ApiProperty() refund_reason: string;
  @ApiProperty({ type: 'integer', description: "The order's refunded total after this refund." })
  order_refunded_cents: number;
  @ApiProperty({ type: String, nullable: true }) failure_reason: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completed_at: Date | null;
}
