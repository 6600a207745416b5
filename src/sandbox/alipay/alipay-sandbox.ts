import type { SandboxCredentials } from '../../config/sandbox-credentials';
import { BadRequest } from '../http';
import { SandboxConflict } from '../lifecycle';
import type { ProviderBase, ProviderDefinition } from '../provider-server';
import type { AlipayContext } from './alipay-context';
import { mountGateway } from './gateway';
import { ALIPAY_RETRY_SCHEDULE_MS, isAlipayAck, returnLink, tradeNotification } from './notifications';

/** Alipay (OpenAPI v2 gateway) as the provider sandbox plays it. */
type Ctx = AlipayContext & { readonly base: ProviderBase };

export function alipayDefinition(creds: SandboxCredentials): ProviderDefinition<Ctx> {
  return {
    name: 'alipay',
    title: 'Alipay',
    scheduleMs: ALIPAY_RETRY_SCHEDULE_MS,
    // Alipay signs notifications without a timestamp header and has no SIGNTEST probe.
    unsupportedFaults: ['stale_timestamp', 'signtest_probe'],
    isAck: isAlipayAck,
    createContext: (base) => ({
      base,
      creds: creds.alipay,
      store: base.store,
      lifecycle: base.lifecycle,
      baseUrl: base.baseUrl,
      transferFailure: null,
    }),
    settled(ctx, order) {
      const spec = tradeNotification(ctx, order);
      if (spec) ctx.base.notifier.send(spec);
    },
    transfers: (ctx) => ({
      confirm: () => {
        throw new SandboxConflict('Alipay transfers complete at once; there is nothing to confirm');
      },
      fail: (transfer, reason) => {
        if (transfer.state !== 'succeeded') throw new SandboxConflict(`transfer is ${transfer.state}`);
        // A completed transfer that bounces: Alipay reports status REFUND and the money comes back.
        transfer.state = 'returned';
        transfer.failReason = reason;
        transfer.updatedAt = new Date();
      },
      failNext: (reason) => {
        if (!/^[A-Z_]{3,64}$/.test(reason)) throw new BadRequest('reason must be an Alipay sub_code');
        ctx.transferFailure = reason;
      },
    }),
    returnLink,
    mount: (router, ctx) => mountGateway(router, ctx, ctx.base.faults, ctx.base.timers),
  };
}
