import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * payment_orders_method_provider let an order of an online provider through without a payment_type: `payment_type
 * IN (...)` is NULL, not false, for a NULL type, and a CHECK refuses only false. The service never wrote such a row
 * (every Alipay, card and WeChat Pay order names its checkout); now the database says so too, as the provider table
 * does (src/common/payment-providers.ts: a provider with checkout kinds takes one of them, one without takes none;
 * test/payment/provider-table.e2e-spec.ts checks every combination).
 */
export class PaymentTypeRequired1732200170000 implements MigrationInterface {
  name = 'PaymentTypeRequired1732200170000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payment_orders DROP CONSTRAINT payment_orders_method_provider`);
    await q.query(`ALTER TABLE payment_orders ADD CONSTRAINT payment_orders_method_provider CHECK (
         (payment_method IN ('alipay', 'card') AND provider = 'alipay'
            AND payment_type IS NOT NULL AND payment_type IN ('page', 'wap', 'qr'))
      OR (payment_method = 'wechat' AND provider = 'wechat'
            AND payment_type IS NOT NULL AND payment_type IN ('native', 'jsapi', 'h5'))
      OR (payment_method = 'bank_transfer' AND provider = 'bank' AND payment_type IS NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payment_orders DROP CONSTRAINT payment_orders_method_provider`);
    await q.query(`ALTER TABLE payment_orders ADD CONSTRAINT payment_orders_method_provider CHECK (
         (payment_method IN ('alipay', 'card') AND provider = 'alipay' AND payment_type IN ('page', 'wap', 'qr'))
      OR (payment_method = 'wechat' AND provider = 'wechat' AND payment_type IN ('native', 'jsapi', 'h5'))
      OR (payment_method = 'bank_transfer' AND provider = 'bank' AND payment_type IS NULL))`);
  }
}
