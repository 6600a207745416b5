import { alipayTime, beijingDate, randomDigits, yuanToCents } from '../formats';
import type { SandboxTransfer } from '../store';
import { businessError, type MethodHandler, ok, str, yuan } from './alipay-context';

/**
 * alipay.fund.trans.uni.transfer and alipay.fund.trans.common.query: transfers to an Alipay account complete at once
 * (status SUCCESS); the test API can make the next one fail, or return ("bounce") a completed one.
 */
const STATUS: Record<SandboxTransfer['state'], string> = {
  wait_user_confirm: 'DEALING',
  succeeded: 'SUCCESS',
  failed: 'FAIL',
  returned: 'REFUND',
  cancelled: 'CLOSED',
};

const FAILURE_MESSAGES: Record<string, string> = {
  PAYEE_NOT_EXIST: 'the payee account does not exist',
  PAYEE_USER_INFO_ERROR: 'the payee name does not match the account',
  PAYER_BALANCE_NOT_ENOUGH: 'the merchant balance is not enough',
};

export const transfer: MethodHandler = (ctx, biz) => {
  const outBizNo = str(biz, 'out_biz_no');
  if (!outBizNo || !/^[A-Za-z0-9_]{1,64}$/.test(outBizNo)) {
    return businessError('INVALID_PARAMETER', 'out_biz_no is invalid');
  }
  if (str(biz, 'product_code') !== 'TRANS_ACCOUNT_NO_PWD' || str(biz, 'biz_scene') !== 'DIRECT_TRANSFER') {
    return businessError(
      'INVALID_PARAMETER',
      'product_code TRANS_ACCOUNT_NO_PWD and biz_scene DIRECT_TRANSFER',
    );
  }
  const amountCents = yuanToCents(biz.trans_amount);
  if (amountCents === null || amountCents < 10)
    return businessError('INVALID_PARAMETER', 'trans_amount >= 0.10');
  const payee = biz.payee_info as Record<string, unknown> | undefined;
  const identity = payee && str(payee, 'identity');
  const identityType = payee && str(payee, 'identity_type');
  if (!identity || !['ALIPAY_LOGON_ID', 'ALIPAY_USER_ID', 'ALIPAY_OPEN_ID'].includes(identityType ?? '')) {
    return businessError('INVALID_PARAMETER', 'payee_info.identity and identity_type are required');
  }
  const name = str(payee, 'name');
  if (identityType === 'ALIPAY_LOGON_ID' && !name) {
    return businessError('PAYEE_USER_INFO_ERROR', 'payee_info.name is required for ALIPAY_LOGON_ID');
  }
  const existing = ctx.store.transfers.get(outBizNo);
  if (existing) {
    if (existing.amountCents !== amountCents || existing.payee !== identity) {
      return businessError('EXCEED_LIMIT_SM_AMOUNT', 'out_biz_no was used for another transfer');
    }
    return answer(existing);
  }
  const now = new Date();
  const record: SandboxTransfer = {
    outBillNo: outBizNo,
    billNo: `${beijingDate(now)}110070001${randomDigits(12)}`,
    amountCents,
    payee: identity,
    payeeName: name,
    remark: str(biz, 'remark'),
    notifyUrl: null,
    createdAt: now,
    state: 'succeeded',
    failReason: null,
    updatedAt: now,
  };
  const failure = ctx.transferFailure;
  if (failure) {
    ctx.transferFailure = null;
    record.state = 'failed';
    record.failReason = failure;
    ctx.store.transfers.set(outBizNo, record);
    return businessError(failure, FAILURE_MESSAGES[failure] ?? 'the transfer failed');
  }
  ctx.store.transfers.set(outBizNo, record);
  return answer(record);
};

function answer(t: SandboxTransfer) {
  return ok({
    out_biz_no: t.outBillNo,
    order_id: t.billNo,
    pay_fund_order_id: `${t.billNo}P`,
    status: STATUS[t.state],
    trans_date: alipayTime(t.createdAt),
  });
}

export const transferQuery: MethodHandler = (ctx, biz) => {
  const outBizNo = str(biz, 'out_biz_no');
  const orderId = str(biz, 'order_id');
  const t = outBizNo
    ? ctx.store.transfers.get(outBizNo)
    : [...ctx.store.transfers.values()].find((x) => x.billNo === orderId);
  if (!t) return businessError('ORDER_NOT_EXIST', 'the transfer does not exist');
  return ok({
    order_id: t.billNo,
    pay_fund_order_id: `${t.billNo}P`,
    out_biz_no: t.outBillNo,
    trans_amount: yuan(t.amountCents),
    status: STATUS[t.state],
    pay_date: alipayTime(t.createdAt),
    order_fee: '0.00',
    ...(t.failReason
      ? { fail_reason: FAILURE_MESSAGES[t.failReason] ?? t.failReason, error_code: t.failReason }
      : {}),
  });
};
