import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { escapeHtml, htmlPage } from '../cashier';
import type { Fault, FaultRegistry } from '../faults';
import { header, redirect, type Router, type SandboxRequest, sendText } from '../http';
import type { Timers } from '../timers';
import {
  type AlipayContext,
  type AlipayPayload,
  invalidArguments,
  type MethodHandler,
  str,
} from './alipay-context';
import { type Params, requestSignContent, rsa2Verify, signedResponse } from './alipay-crypto';
import { transfer, transferQuery } from './fund-methods';
import { close, isOrder, openOrder, precreate, query, refund, refundQuery } from './trade-methods';

/**
 * The OpenAPI v2 gateway (`/gateway.do`). Every call is checked like Alipay does it: app_id, sign_type RSA2 and the
 * RSA2 signature over all parameters with the app public key; answers are `{"<method>_response":{...},"sign":...}`
 * signed with the platform key. Page and wap payments arrive as the buyer's browser opening the signed URL (or
 * posting the signed form) and are sent on to the cashier page.
 */
const METHODS: Record<string, MethodHandler> = {
  'alipay.trade.precreate': precreate,
  'alipay.trade.query': query,
  'alipay.trade.close': close,
  'alipay.trade.refund': refund,
  'alipay.trade.fastpay.refund.query': refundQuery,
  'alipay.fund.trans.uni.transfer': transfer,
  'alipay.fund.trans.common.query': transferQuery,
};

const PAGE_METHODS: Record<string, 'page' | 'wap'> = {
  'alipay.trade.page.pay': 'page',
  'alipay.trade.wap.pay': 'wap',
};

function collect(req: SandboxRequest): Params {
  const params: Params = Object.fromEntries(req.url.searchParams);
  const type = header(req, 'content-type') ?? 'application/x-www-form-urlencoded';
  if (req.rawBody.length > 0 && type.includes('application/x-www-form-urlencoded')) {
    Object.assign(params, Object.fromEntries(new URLSearchParams(req.rawBody.toString('utf8'))));
  }
  return params;
}

/** Checks the common parameters and the signature; returns the parsed biz_content or the error to answer. */
function verify(
  ctx: AlipayContext,
  params: Params,
): { biz: Record<string, unknown> } | { error: AlipayPayload } {
  const missing = (name: string): { error: AlipayPayload } => ({
    error: {
      code: '40001',
      msg: 'Missing Required Arguments',
      sub_code: `isv.missing-${name}`,
      sub_msg: name,
    },
  });
  if (!params.app_id) return missing('app-id');
  if (params.app_id !== ctx.creds.appId)
    return { error: invalidArguments('isv.invalid-app-id', 'unknown app_id') };
  if (!params.sign) return missing('signature');
  if (params.sign_type !== 'RSA2') {
    return { error: invalidArguments('isv.invalid-signature-type', 'sign_type must be RSA2') };
  }
  if (!params.timestamp) return missing('timestamp');
  if (params.charset && params.charset.toLowerCase() !== 'utf-8') {
    return { error: invalidArguments('isv.invalid-charset', 'charset must be utf-8') };
  }
  if (!rsa2Verify(requestSignContent(params), params.sign, ctx.creds.appPublicKey)) {
    return {
      error: invalidArguments(
        'isv.invalid-signature',
        `verification failed; signed text: ${requestSignContent(params)}`,
      ),
    };
  }
  try {
    const biz: unknown = JSON.parse(params.biz_content ?? '{}');
    if (biz && typeof biz === 'object' && !Array.isArray(biz)) return { biz: biz as Record<string, unknown> };
  } catch {
    // fall through
  }
  return { error: invalidArguments('isv.invalid-parameter', 'biz_content must be a JSON object') };
}

function delay(timers: Timers, ms: number): Promise<void> {
  return new Promise((resolve) => timers.after(ms, resolve));
}

export function mountGateway(
  router: Router,
  ctx: AlipayContext,
  faults: FaultRegistry,
  timers: Timers,
): void {
  const send = (res: ServerResponse, method: string, payload: AlipayPayload, fault?: Fault): void => {
    const body = signedResponse(method, payload, ctx.creds.platformPrivateKey, {
      tamper: fault?.kind === 'tampered_signature',
    });
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      trace_id: randomBytes(16).toString('hex'),
    });
    res.end(body);
  };

  const handle = async (req: SandboxRequest, res: ServerResponse): Promise<void> => {
    const params = collect(req);
    const method = params.method ?? '';
    const checked = verify(ctx, params);
    if (PAGE_METHODS[method]) return pagePay(ctx, req, res, params, checked, PAGE_METHODS[method]);
    const handler = METHODS[method];
    if (!handler) {
      return send(res, 'error', invalidArguments('isv.invalid-method', `unknown method '${method}'`));
    }
    const biz = 'biz' in checked ? checked.biz : {};
    const keys = [method, str(biz, 'out_trade_no'), str(biz, 'out_biz_no')].filter(
      (k): k is string => k !== null,
    );
    const fault = faults.take('response', keys, 1)[0];
    if (fault?.kind === 'server_error') return sendText(res, fault.status, 'Service Unavailable');
    const payload = 'error' in checked ? checked.error : handler(ctx, checked.biz, params);
    if (fault?.kind === 'timeout') await delay(timers, fault.delayMs);
    send(res, method, payload, fault);
  };
  router.on('POST', '/gateway.do', handle).on('GET', '/gateway.do', handle);
}

function pagePay(
  ctx: AlipayContext,
  _req: SandboxRequest,
  res: ServerResponse,
  params: Params,
  checked: ReturnType<typeof verify>,
  channel: 'page' | 'wap',
): void {
  const result = 'error' in checked ? checked.error : openOrder(ctx, checked.biz, params, channel);
  if (isOrder(result)) return redirect(res, `/cashier/${result.cashierToken}`);
  const code = typeof result.sub_code === 'string' ? result.sub_code : result.code;
  const message = typeof result.sub_msg === 'string' ? result.sub_msg : result.msg;
  const body = `<h1>Alipay sandbox: the payment request was refused</h1>
<p>Error code: <code id="sub_code">${escapeHtml(code)}</code></p><p>${escapeHtml(message)}</p>`;
  sendText(res, 400, htmlPage('Alipay sandbox error', body), 'text/html');
}
