import type { McpServer } from '@modelcontextprotocol/server';
import type { Legwork } from '@legwork/sdk';
import { rechargeRequestLimits } from '@legwork/sdk/types';
import * as z from 'zod';
import { idempotencyKeyFor } from '../idempotency';
import { ok, run } from '../results';
import { idempotencyKey, integer, topUpOutput } from '../schemas';

export function registerCreateTopUp(server: McpServer, client: Legwork): void {
  server.registerTool(
    'create_top_up',
    {
      title: 'Top up the balance',
      description:
        'Creates a payment order to add money to your balance and answers its payment_url for a person to ' +
        'pay (Alipay). The balance grows once it is paid; check with get_account. In sandbox mode the simulated ' +
        'provider pays it by itself within seconds. A retried identical call returns the same order; give an ' +
        'idempotency_key to create a second order of the same amount.',
      inputSchema: z.object({
        amount_cents: integer(rechargeRequestLimits.amount_cents).describe('CNY cents (100 = 1 RMB).'),
        idempotency_key: idempotencyKey.optional(),
      }),
      outputSchema: topUpOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    ({ amount_cents, idempotency_key }) =>
      run(async () => {
        const key = idempotencyKeyFor('create_top_up', { amount_cents }, idempotency_key);
        const order = await client.payments.recharge({ amount_cents }, { idempotencyKey: key });
        return ok({ ...order, idempotency_key: key });
      }),
  );
}
