import { inputRequired, type McpServer } from '@modelcontextprotocol/server';
import type { Legwork } from '@legwork/sdk';
import { rechargeRequestLimits } from '@legwork/sdk/types';
import * as z from 'zod';
import { idempotencyKeyFor } from '../idempotency';
import { ok, run } from '../results';
import { idempotencyKey, integer, topUpOutput } from '../schemas';

/** The state of the call again after the payment page: it only answers the order. */
const PAGE_OPENED = 'payment_page_opened';

export function registerCreateTopUp(server: McpServer, client: Legwork): void {
  server.registerTool(
    'create_top_up',
    {
      title: 'Top up the balance',
      description:
        'Creates a payment order to add money to your balance and answers its payment_url for a person to ' +
        'pay (Alipay). The balance grows once it is paid; check with get_account. In sandbox mode the simulated ' +
        'provider pays it by itself within seconds. A retried identical call returns the same order; give an ' +
        'idempotency_key to create a second order of the same amount. Hosts that can open links are asked to ' +
        'open the payment page for the person (payment never goes through tool arguments or forms).',
      inputSchema: z.object({
        amount_cents: integer(rechargeRequestLimits.amount_cents).describe('CNY cents (100 = 1 RMB).'),
        idempotency_key: idempotencyKey.optional(),
      }),
      outputSchema: topUpOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    ({ amount_cents, idempotency_key }, ctx) =>
      run(async () => {
        const key = idempotencyKeyFor('create_top_up', { amount_cents }, idempotency_key);
        // The call again after the page was opened replays the same order under the same key.
        const order = await client.payments.recharge({ amount_cents }, { idempotencyKey: key });
        const opened = ctx.mcpReq.requestState<string>() === PAGE_OPENED;
        const canOpen = server.server.getClientCapabilities()?.elicitation?.url !== undefined;
        if (order.payment_url && canOpen && !opened) {
          return inputRequired({
            inputRequests: {
              payment: inputRequired.elicitUrl({
                message: `Pay ${amount_cents / 100} CNY to top up the Legwork balance.`,
                url: order.payment_url,
              }),
            },
            requestState: PAGE_OPENED,
          });
        }
        return ok({ ...order, idempotency_key: key });
      }),
  );
}
