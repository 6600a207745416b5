import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { MaxJsonBytes, NOT_BLANK } from '../../common/http/validators';
import {
  CURRENCIES,
  type Currency,
  LIMITS,
  ORDER_STATUSES,
  type OrderStatus,
  PAYMENT_METHODS,
  type PaymentMethod,
  REFUND_REASONS,
} from '../payment-rules';
import { URL_RULE } from './payment-v1.dto';

export class ReferenceCreateOrderRequest {
  @ApiProperty({ format: 'uuid', description: 'The task to pay for (one of yours).' })
  @IsUUID()
  task_id: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: LIMITS.paymentMaxCents,
    description:
      "Cents of `currency`; must equal the task's total_cents (USD: the smallest number of US cents whose " +
      'conversion at FX_USD_CNY, rounded half up, covers it). The CNY amount must be 1000 to 5,000,000 cents.',
  })
  @IsInt()
  @Min(1)
  @Max(LIMITS.paymentMaxCents)
  amount: number;

  @ApiProperty({ enum: CURRENCIES })
  @IsIn(CURRENCIES)
  currency: Currency;

  @ApiProperty({
    enum: PAYMENT_METHODS,
    description:
      'alipay: page payment; wechat: QR code (native); card: the provider-A cashier, paid by bank card; ' +
      'bank_transfer: enterprise agents only, at least 100000 cents, completed when an operator confirms receipt.',
  })
  @IsIn(PAYMENT_METHODS)
  payment_method: PaymentMethod;

  @ApiProperty({ description: "Where the payer's browser returns after paying." })
  @IsUrl(URL_RULE)
  @Length(1, 1000)
  return_url: string;

  @ApiPropertyOptional({ description: "Receives this order's payment events (https in live mode)." })
  @IsOptional()
  @IsUrl(URL_RULE)
  @Length(1, 1000)
  callback_url?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'At most 1 KB as JSON.' })
  @IsOptional()
  @IsObject()
  @MaxJsonBytes(LIMITS.metadataMaxBytes)
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: LIMITS.expiresMinSeconds,
    maximum: LIMITS.expiresMaxSeconds,
    default: LIMITS.expiresDefaultSeconds,
  })
  @IsOptional()
  @IsInt()
  @Min(LIMITS.expiresMinSeconds)
  @Max(LIMITS.expiresMaxSeconds)
  expires_in_seconds?: number;
}

export class CostBreakdownView {
  @ApiProperty({ type: 'integer' }) worker_payout_cents: number;
  @ApiProperty({ type: 'integer' }) platform_fee_cents: number;
  @ApiProperty({ type: 'integer' }) total_cents: number;
}

export class ReferenceOrderResponse {
  @ApiProperty() order_id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) task_id: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Where to send the payer (alipay, card).' })
  payment_url: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'QR code content (wechat).' })
  qr_code_url: string | null;
  @ApiProperty({ type: 'integer', description: 'Cents of `currency`.' }) amount: number;
  @ApiProperty({ enum: CURRENCIES }) currency: Currency;
  @ApiProperty({
    type: 'integer',
    description: 'What the provider charges and the balance is credited, CNY cents.',
  })
  cny_amount: number;
  @ApiProperty({ enum: PAYMENT_METHODS }) payment_method: PaymentMethod;
  @ApiProperty({ enum: ORDER_STATUSES }) status: OrderStatus;
  @ApiProperty({ type: String, format: 'date-time' }) expires_at: Date;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
}

export class ReferenceOrderQuery {
  @ApiProperty() @IsString() @Length(1, 64) order_id: string;
}

export class ReferenceOrderStatusResponse {
  @ApiProperty() order_id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) task_id: string | null;
  @ApiProperty({ type: 'integer' }) amount: number;
  @ApiProperty({ enum: CURRENCIES }) currency: Currency;
  @ApiProperty({ type: 'integer' }) cny_amount: number;
  @ApiProperty({ enum: PAYMENT_METHODS }) payment_method: PaymentMethod;
  @ApiProperty({ enum: ORDER_STATUSES }) status: OrderStatus;
  @ApiProperty({ type: String, nullable: true, description: "The provider's transaction id once paid." })
  transaction_id: string | null;
  @ApiProperty({ type: 'integer', description: 'Refunded so far, cents of `currency`.' })
  refunded_amount: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) paid_at: Date | null;
  @ApiProperty({ type: String, format: 'date-time' }) expires_at: Date;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
  @ApiProperty({ type: CostBreakdownView, nullable: true }) cost_breakdown: CostBreakdownView | null;
}

export const REFUND_METHODS = ['original', 'balance'] as const;

export class ReferenceRefundRequest {
  @ApiProperty() @IsString() @Length(1, 64) order_id: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: LIMITS.paymentMaxCents,
    description: 'Cents of the order currency; default all that is left.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(LIMITS.paymentMaxCents)
  amount?: number;

  @ApiProperty({
    maxLength: 500,
    example: REFUND_REASONS[0],
    description:
      'One of task_cancelled, quality_issue, task_failed, duplicate_payment, other; any other text (at most 500 ' +
      'characters) is accepted and filed under other.',
  })
  @IsString()
  @Length(1, 500)
  @Matches(NOT_BLANK, { message: 'must not be blank' })
  reason: string;

  @ApiPropertyOptional({
    enum: REFUND_METHODS,
    default: 'original',
    description:
      'original: back to the payer through the provider. balance: refused (400 refund_not_allowed).',
  })
  @IsOptional()
  @IsIn(REFUND_METHODS)
  refund_method?: (typeof REFUND_METHODS)[number];
}

export class ReferenceRefundResponse {
  @ApiProperty() refund_id: string;
  @ApiProperty() order_id: string;
  @ApiProperty({ type: 'integer', description: 'Cents of `currency`.' }) amount: number;
  @ApiProperty({ enum: CURRENCIES }) currency: Currency;
  @ApiProperty({ enum: ['processing', 'completed', 'failed'] }) status: string;
  @ApiProperty({ enum: ['original'] }) refund_method: string;
  @ApiProperty({ description: 'As sent.' }) reason: string;
  @ApiProperty({ enum: REFUND_REASONS, description: 'The reason value, or other for free text.' })
  reason_code: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'Completed: when; otherwise an estimate.' })
  estimated_arrival: Date;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
}
