import { randomBytes } from 'node:crypto';
import { beijingDate, randomDigits, wechatTime } from '../formats';
import { BadRequest, header, type Router, type SandboxRequest } from '../http';
import { SandboxConflict } from '../lifecycle';
import type { SandboxTransfer } from '../store';
import type { TransferControls } from '../test-api';
import { forge, wechatNotification } from './notifications';
import { apiRoute } from './wechat-api';
import { decryptSensitive } from './wechat-crypto';
import {
  notifyUrl,
  paramError,
  requireInt,
  requireString,
  TRANSFER_STATE,
  transferView,
  type WechatContext,
  WechatError,
} from './wechat-context';

/**
 * /v3/fund-app/mch-transfer/transfer-bills (merchant transfer, payee-confirmation mode): a bill waits in
 * WAIT_USER_CONFIRM until the payee accepts (test API `confirm`), then SUCCESS; `fail` or a cancel end it. Final
 * states are notified as MCHTRANSFER.BILL.FINISHED.
 */
const NAME_REQUIRED_FROM_CENTS = 200_000;

function notifyFinished(ctx: WechatContext, t: SandboxTransfer): void {
  if (!t.notifyUrl) return;
  ctx.base.notifier.send(
    wechatNotification(ctx, {
      eventType: 'MCHTRANSFER.BILL.FINISHED',
      summary: '商家转账单据终态通知',
      originalType: 'mch_payment',
      keys: [t.outBillNo, t.billNo],
      url: t.notifyUrl,
      resource: (faults) => {
        const { appid: _appid, transfer_remark: _remark, ...resource } = transferView(ctx, t);
        return forge(resource, faults, (r, delta) => (r.transfer_amount = t.amountCents + delta));
      },
    }),
  );
}

function finish(
  ctx: WechatContext,
  t: SandboxTransfer,
  state: SandboxTransfer['state'],
  reason: string | null,
) {
  t.state = state;
  t.failReason = reason;
  t.updatedAt = new Date();
  notifyFinished(ctx, t);
}

function createBill(ctx: WechatContext, req: SandboxRequest, body: Record<string, unknown>) {
  if (body.appid !== ctx.creds.appId)
    throw new WechatError(400, 'APPID_MCHID_NOT_MATCH', 'appid does not match');
  const outBillNo = requireString(body, 'out_bill_no', /^[0-9A-Za-z]{1,32}$/);
  requireString(body, 'transfer_scene_id');
  const openid = requireString(body, 'openid');
  const amount = requireInt(body.transfer_amount, 'transfer_amount', 10);
  const remark = requireString(body, 'transfer_remark');
  if (remark.length > 32) throw paramError('transfer_remark is longer than 32 characters');
  const infos = body.transfer_scene_report_infos;
  if (!Array.isArray(infos) || infos.length === 0)
    throw paramError('transfer_scene_report_infos is required');
  const url = notifyUrl(body, false);
  let payeeName: string | null = null;
  if (body.user_name !== undefined) {
    if (header(req, 'wechatpay-serial') !== ctx.creds.platformPublicKeyId) {
      throw paramError('Wechatpay-Serial must name the WeChat Pay public key that encrypted user_name');
    }
    payeeName =
      typeof body.user_name === 'string'
        ? decryptSensitive(body.user_name, ctx.creds.platformPrivateKey)
        : null;
    if (payeeName === null) throw paramError('user_name does not decrypt with the WeChat Pay public key');
  } else if (amount >= NAME_REQUIRED_FROM_CENTS) {
    throw paramError('user_name is required from 2000 yuan');
  }

  const existing = ctx.base.store.transfers.get(outBillNo);
  if (existing) {
    if (existing.amountCents !== amount || existing.payee !== openid) {
      throw new WechatError(400, 'INVALID_REQUEST', 'out_bill_no was used for another transfer');
    }
    return { status: 200, body: billAnswer(existing) };
  }
  const now = new Date();
  const t: SandboxTransfer = {
    outBillNo,
    billNo: `1330${randomDigits(6)}${beijingDate(now)}${randomDigits(14)}`,
    amountCents: amount,
    payee: openid,
    payeeName,
    remark,
    notifyUrl: url,
    createdAt: now,
    state: 'wait_user_confirm',
    failReason: null,
    updatedAt: now,
  };
  ctx.base.store.transfers.set(outBillNo, t);
  if (ctx.transferFailure) {
    const reason = ctx.transferFailure;
    ctx.transferFailure = null;
    finish(ctx, t, 'failed', reason);
  }
  return { status: 200, body: billAnswer(t) };
}

function billAnswer(t: SandboxTransfer) {
  return {
    out_bill_no: t.outBillNo,
    transfer_bill_no: t.billNo,
    create_time: wechatTime(t.createdAt),
    state: TRANSFER_STATE[t.state],
    ...(t.state === 'wait_user_confirm' ? { package_info: randomBytes(48).toString('base64') } : {}),
    ...(t.failReason ? { fail_reason: t.failReason } : {}),
  };
}

export function mountTransfers(router: Router, ctx: WechatContext): void {
  const base = '/v3/fund-app/mch-transfer/transfer-bills';
  apiRoute(router, ctx, 'POST', base, 'transfer', createBill);
  const find = (c: WechatContext, no: string) => {
    const t = c.base.store.transfers.get(no);
    if (!t) throw new WechatError(404, 'NOT_FOUND', 'the transfer bill does not exist');
    return t;
  };
  apiRoute(router, ctx, 'GET', `${base}/out-bill-no/:out_bill_no`, 'transfer_query', (c, req) => ({
    status: 200,
    body: transferView(c, find(c, req.params.out_bill_no)),
  }));
  apiRoute(router, ctx, 'POST', `${base}/out-bill-no/:out_bill_no/cancel`, 'transfer_cancel', (c, req) => {
    const t = find(c, req.params.out_bill_no);
    if (t.state !== 'wait_user_confirm')
      throw new WechatError(400, 'INVALID_REQUEST', 'only a waiting bill cancels');
    finish(c, t, 'cancelled', null);
    const { out_bill_no, transfer_bill_no, state, update_time } = transferView(c, t);
    return { status: 200, body: { out_bill_no, transfer_bill_no, state, update_time } };
  });
}

export function wechatTransferControls(ctx: WechatContext): TransferControls {
  const waiting = (t: SandboxTransfer) => {
    if (t.state !== 'wait_user_confirm') throw new SandboxConflict(`transfer is ${t.state}`);
  };
  return {
    confirm: (t) => (waiting(t), finish(ctx, t, 'succeeded', null)),
    fail: (t, reason) => (waiting(t), finish(ctx, t, 'failed', reason)),
    failNext: (reason) => {
      if (!/^[A-Z_]{3,64}$/.test(reason)) throw new BadRequest('reason must be a WeChat fail_reason code');
      ctx.transferFailure = reason;
    },
  };
}
