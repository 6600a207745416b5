import { ApiErrors } from '../../common/errors/api-errors.decorator';

/**
 * What a refund can be refused with, on both surfaces (`POST /v1/payment/refund`, `POST /api/v1/payment/refund`):
 * both are RefundService's one refund, so they answer the same errors.
 */
export const RefundErrors = () =>
  ApiErrors({
    400: ['validation_error', 'refund_not_allowed', 'already_refunded', 'payment_method_unavailable'],
    402: ['insufficient_balance'],
    404: ['order_not_found'],
  });
