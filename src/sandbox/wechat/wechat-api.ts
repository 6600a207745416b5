import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Fault } from '../faults';
import { header, type Router, type SandboxRequest } from '../http';
import { parseAuthorization, requestMessage, rsaVerify, signatureHeaders } from './wechat-crypto';
import { type WechatContext, WechatError } from './wechat-context';

/**
 * The APIv3 request pipeline: check the merchant's Authorization signature (mchid, certificate serial, timestamp
 * within 5 minutes, SHA256withRSA over method, target, timestamp, nonce and body), run the handler, then sign the
 * answer (errors included) with the platform key. Response faults are applied here.
 */
export interface ApiResult {
  readonly status: number;
  /** undefined: an empty body (204 No Content). */
  readonly body?: unknown;
}

export type ApiHandler = (
  ctx: WechatContext,
  req: SandboxRequest,
  body: Record<string, unknown>,
) => ApiResult;

const MAX_CLOCK_SKEW_S = 300;

function authenticate(ctx: WechatContext, req: SandboxRequest): void {
  const auth = parseAuthorization(header(req, 'authorization'));
  if (!auth)
    throw new WechatError(
      401,
      'SIGN_ERROR',
      'missing or malformed Authorization (WECHATPAY2-SHA256-RSA2048)',
    );
  if (auth.mchid !== ctx.creds.mchId) throw new WechatError(401, 'SIGN_ERROR', 'unknown mchid');
  if (auth.serial_no !== ctx.creds.merchantSerial) {
    throw new WechatError(401, 'SIGN_ERROR', 'serial_no is not the merchant certificate serial');
  }
  const ts = Number(auth.timestamp);
  if (!Number.isInteger(ts) || Math.abs(Date.now() / 1000 - ts) > MAX_CLOCK_SKEW_S) {
    throw new WechatError(401, 'SIGN_ERROR', 'timestamp is more than 5 minutes off');
  }
  const message = requestMessage(
    req.method,
    req.target,
    auth.timestamp,
    auth.nonce_str,
    req.rawBody.toString('utf8'),
  );
  if (!rsaVerify(message, auth.signature, ctx.creds.merchantPublicKey)) {
    throw new WechatError(401, 'SIGN_ERROR', 'signature verification failed');
  }
}

function parseBody(req: SandboxRequest): Record<string, unknown> {
  if (req.method === 'GET' || req.rawBody.length === 0) return {};
  try {
    const v: unknown = JSON.parse(req.rawBody.toString('utf8'));
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new WechatError(400, 'PARAM_ERROR', 'the body must be a JSON object');
}

function send(ctx: WechatContext, res: ServerResponse, result: ApiResult, fault?: Fault): void {
  const text = result.body === undefined ? '' : JSON.stringify(result.body);
  const signed = signatureHeaders(text, ctx.creds.platformPrivateKey, ctx.creds.platformPublicKeyId, {
    tamper: fault?.kind === 'tampered_signature',
  });
  res.writeHead(result.status, {
    ...signed,
    'Request-ID': randomBytes(16).toString('hex'),
    ...(text ? { 'content-type': 'application/json; charset=utf-8' } : {}),
  });
  res.end(text);
}

/** Mounts one APIv3 operation; `operation` is its name for fault matching (native, query, refund, ...). */
export function apiRoute(
  router: Router,
  ctx: WechatContext,
  method: string,
  path: string,
  operation: string,
  handler: ApiHandler,
): void {
  router.on(method, path, async (req, res) => {
    let fault: Fault | undefined;
    let result: ApiResult;
    try {
      authenticate(ctx, req);
      const body = parseBody(req);
      const keys = [operation, ...Object.values(req.params)];
      for (const k of ['out_trade_no', 'out_refund_no', 'out_bill_no'])
        if (typeof body[k] === 'string') keys.push(body[k]);
      fault = ctx.base.faults.take('response', keys, 1)[0];
      if (fault?.kind === 'server_error')
        throw new WechatError(fault.status, 'SYSTEM_ERROR', 'system error, retry');
      result = handler(ctx, req, body);
    } catch (err) {
      if (!(err instanceof WechatError)) throw err;
      result = { status: err.status, body: { code: err.code, message: err.message } };
    }
    if (fault?.kind === 'timeout') {
      await new Promise<void>((resolve) => ctx.base.timers.after(fault.delayMs, resolve));
    }
    send(ctx, res, result, fault);
  });
}
