import { ProviderError } from './provider-error';

/**
 * Runs one wechatpay-axios-plugin request and maps its failures to ProviderError. The plugin verifies every 2xx
 * answer (Wechatpay-* headers, ±300 s, known serial, signature) and fails with an EV3_* code when it cannot.
 */
type Data = Record<string, unknown>;
type Run = () => PromiseLike<{ data?: unknown }>;

interface HttpFailure {
  code?: string;
  message?: string;
  response?: { status: number; data?: unknown };
}

/** Codes that mean our request is wrong (signature, ids, parameters) rather than a business refusal. */
const REQUEST_ERRORS = [
  'SIGN_ERROR',
  'PARAM_ERROR',
  'APPID_MCHID_NOT_MATCH',
  'MCH_NOT_EXISTS',
  'INVALID_REQUEST_FORMAT',
];
const NOT_FOUND = ['ORDER_NOT_EXIST', 'RESOURCE_NOT_EXISTS', 'NOT_FOUND'];

export function wechatCall(operation: string, run: Run): Promise<Data>;
export function wechatCall(operation: string, run: Run, allowNotFound: true): Promise<Data | null>;
export function wechatCall(
  operation: string,
  run: Run,
  allowNotFound: false,
  refusalAsResult: true,
): Promise<Data | { refused: string }>;
export async function wechatCall(
  operation: string,
  run: Run,
  allowNotFound = false,
  refusalAsResult = false,
): Promise<Data | { refused: string } | null> {
  try {
    const res = await run();
    return (res.data && typeof res.data === 'object' ? res.data : {}) as Data;
  } catch (err) {
    const mapped = mapError(operation, err);
    if (allowNotFound && mapped.kind === 'rejected' && NOT_FOUND.includes(mapped.providerCode ?? ''))
      return null;
    if (refusalAsResult && mapped.kind === 'rejected') return { refused: mapped.providerCode ?? 'REFUSED' };
    throw mapped;
  }
}

function mapError(operation: string, err: unknown): ProviderError {
  const e = (err ?? {}) as HttpFailure;
  const cause = { cause: err };
  if (typeof e.code === 'string' && e.code.startsWith('EV3_RES_')) {
    return new ProviderError('wechat', 'bad_response_signature', `${operation}: ${e.code}`, e.code, cause);
  }
  if (e.code === 'ECONNABORTED' || e.code === 'ETIMEDOUT') {
    return new ProviderError('wechat', 'timeout', `${operation}: no answer in time`, null, cause);
  }
  if (!e.response) {
    return new ProviderError(
      'wechat',
      'unavailable',
      `${operation}: ${e.message ?? String(err)}`,
      e.code ?? null,
      cause,
    );
  }
  const { status, data } = e.response;
  const body = (data && typeof data === 'object' ? data : {}) as { code?: unknown; message?: unknown };
  const code = typeof body.code === 'string' ? body.code : `HTTP_${status}`;
  const message =
    `${operation}: ${status} ${code} ${typeof body.message === 'string' ? body.message : ''}`.trim();
  if (status >= 500 || status === 429)
    return new ProviderError('wechat', 'unavailable', message, code, cause);
  if (status === 401 || REQUEST_ERRORS.includes(code)) {
    return new ProviderError('wechat', 'invalid_request', message, code, cause);
  }
  return new ProviderError('wechat', 'rejected', message, code, cause);
}
