import { randomUUID } from 'node:crypto';
import type { Fault } from '../faults';
import { wechatTime } from '../formats';
import type { NotificationSpec } from '../notifier';
import { encryptResource, signatureHeaders } from './wechat-crypto';
import type { WechatContext } from './wechat-context';

/**
 * APIv3 notifications: a JSON envelope whose `resource` is AES-256-GCM encrypted with the APIv3 key, the whole body
 * signed with the platform key in Wechatpay-* headers. WeChat notifies successful payments (TRANSACTION.SUCCESS),
 * refunds reaching a final state (REFUND.SUCCESS) and transfer bills reaching a final state
 * (MCHTRANSFER.BILL.FINISHED); an HTTP 200 or 204 answer acknowledges.
 */
export const WECHAT_RETRY_SCHEDULE_MS = [
  15_000, 15_000, 30_000, 180_000, 600_000, 1_200_000, 1_800_000, 1_800_000, 1_800_000, 3_600_000, 10_800_000,
  10_800_000, 10_800_000, 21_600_000, 21_600_000,
];

export function isWechatAck(status: number): boolean {
  return status === 200 || status === 204;
}

export interface WechatEvent {
  readonly eventType: 'TRANSACTION.SUCCESS' | 'REFUND.SUCCESS' | 'MCHTRANSFER.BILL.FINISHED';
  readonly summary: string;
  /** transaction, refund or mch_payment: the resource's original_type and associated data. */
  readonly originalType: string;
  readonly keys: readonly string[];
  readonly url: string;
  /** The plaintext resource; `faults` may ask for a wrong amount or a foreign merchant. */
  resource(faults: readonly Fault[]): Record<string, unknown>;
}

const STALE_SECONDS = 600;

export function wechatNotification(ctx: WechatContext, event: WechatEvent): NotificationSpec {
  const id = randomUUID();
  const createTime = wechatTime(new Date());
  return {
    event: event.eventType,
    keys: event.keys,
    url: event.url,
    build(faults) {
      const has = (kind: string) => faults.some((f) => f.kind === kind);
      const plaintext = JSON.stringify(event.resource(faults));
      const body = JSON.stringify({
        id,
        create_time: createTime,
        resource_type: 'encrypt-resource',
        event_type: event.eventType,
        summary: event.summary,
        resource: encryptResource(plaintext, ctx.creds.apiV3Key, event.originalType),
      });
      const headers = signatureHeaders(body, ctx.creds.platformPrivateKey, ctx.creds.platformPublicKeyId, {
        timestamp: has('stale_timestamp') ? Math.floor(Date.now() / 1000) - STALE_SECONDS : undefined,
        tamper: has('tampered_signature'),
        signTest: has('signtest_probe'),
      });
      return { headers: { ...headers, 'content-type': 'application/json' }, body };
    },
  };
}

/** Applies the wrong_amount and wrong_app faults to a plaintext resource. */
export function forge<T extends Record<string, unknown>>(
  resource: T,
  faults: readonly Fault[],
  amountField: (r: T, delta: number) => void,
): T {
  const wrongAmount = faults.find((f) => f.kind === 'wrong_amount');
  if (wrongAmount) amountField(resource, wrongAmount.amountDeltaCents);
  if (faults.some((f) => f.kind === 'wrong_app')) {
    const other = `1${String(Date.now()).slice(-9)}`;
    if ('mchid' in resource) Object.assign(resource, { mchid: other });
    if ('mch_id' in resource) Object.assign(resource, { mch_id: other });
    if ('appid' in resource) Object.assign(resource, { appid: 'wx0000000000000000' });
  }
  return resource;
}
