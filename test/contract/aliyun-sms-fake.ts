import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for Aliyun SMS's SendSms API (dysmsapi, version 2017-05-25), written from Aliyun's published
 * protocol with node:crypto alone, never from the SDK the service uses, so the contract test compares two
 * independent implementations. It checks what Aliyun checks and answers as Aliyun answers:
 * - the V3 request signature, ACS3-HMAC-SHA256: the canonical request (method, path, sorted RFC 3986 query,
 *   the signed headers `host`, `content-type` and `x-acs-*`, the body's SHA-256) hashed and signed with the
 *   AccessKey secret; the body's hash against `x-acs-content-sha256`; a fresh date (15 minutes) and an unused nonce.
 *   A wrong signature is HTTP 400 `SignatureDoesNotMatch`, an unknown key 404 `InvalidAccessKeyId.NotFound`.
 * - the message: a mainland number, the registered signature, an approved template and exactly its variables.
 *   A refusal is HTTP 200 with a `Code` other than `OK` (`isv.MOBILE_NUMBER_ILLEGAL`, `isv.SMS_SIGNATURE_ILLEGAL`,
 *   `isv.SMS_TEMPLATE_ILLEGAL`, `isv.TEMPLATE_MISSING_PARAMETERS`, `isv.TEMPLATE_PARAMS_ILLEGAL`).
 * Accepted messages are kept for the test to read; `refuseNext` makes the next valid request answer a given code.
 */
export interface FakeAliyunOptions {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  /** Approved template codes and the variables each takes. */
  templates: Record<string, readonly string[]>;
}

export interface AcceptedSms {
  phoneNumbers: string;
  signName: string;
  templateCode: string;
  templateParam: Record<string, string>;
  bizId: string;
}

export interface FakeAliyunSms {
  /** Origin to give the gateway as its endpoint, e.g. http://127.0.0.1:41234 */
  readonly endpoint: string;
  readonly accepted: AcceptedSms[];
  /** Requests refused before the message was looked at (signature, key, date, nonce), with Aliyun's code. */
  readonly refusedRequests: string[];
  refuseNext(code: string): void;
  stop(): Promise<void>;
}

const SIGNED_ALWAYS = [
  'host',
  'x-acs-action',
  'x-acs-content-sha256',
  'x-acs-date',
  'x-acs-signature-nonce',
  'x-acs-version',
];
const MAX_CLOCK_SKEW_MS = 15 * 60_000;

export async function startFakeAliyunSms(options: FakeAliyunOptions): Promise<FakeAliyunSms> {
  const accepted: AcceptedSms[] = [];
  const refusedRequests: string[] = [];
  const nonces = new Set<string>();
  const refusals: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const problem = checkRequest(req, body, options, nonces);
      if (problem) {
        refusedRequests.push(problem.code);
        return answer(res, problem.status, { Code: problem.code, Message: problem.message });
      }
      const query = new URL(req.url ?? '/', 'http://fake.invalid').searchParams;
      const refusal = refusals.shift() ?? checkMessage(query, options);
      if (refusal) return answer(res, 200, { Code: refusal, Message: `refused: ${refusal}` });
      const sms: AcceptedSms = {
        phoneNumbers: query.get('PhoneNumbers')!,
        signName: query.get('SignName')!,
        templateCode: query.get('TemplateCode')!,
        templateParam: JSON.parse(query.get('TemplateParam') ?? '{}') as Record<string, string>,
        bizId: `${Date.now()}^0`,
      };
      accepted.push(sms);
      answer(res, 200, { Code: 'OK', Message: 'OK', BizId: sms.bizId });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accepted,
    refusedRequests,
    refuseNext: (code) => refusals.push(code),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function answer(res: ServerResponse, status: number, body: Record<string, string>): void {
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
  res.end(JSON.stringify({ RequestId: randomUUID().toUpperCase(), ...body }));
}

interface Problem {
  status: number;
  code: string;
  message: string;
}

function checkRequest(
  req: IncomingMessage,
  body: Buffer,
  options: FakeAliyunOptions,
  nonces: Set<string>,
): Problem | null {
  const h = (name: string) => String(req.headers[name] ?? '');
  if (h('x-acs-action') !== 'SendSms' || h('x-acs-version') !== '2017-05-25') {
    return { status: 400, code: 'InvalidAction.NotFound', message: 'only SendSms 2017-05-25 is served here' };
  }
  const auth = /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([^,]+),Signature=([0-9a-f]{64})$/.exec(
    h('authorization'),
  );
  if (!auth) return { status: 400, code: 'IncompleteSignature', message: 'malformed Authorization' };
  const [, keyId, signedList, signature] = auth;
  if (keyId !== options.accessKeyId) {
    return {
      status: 404,
      code: 'InvalidAccessKeyId.NotFound',
      message: 'Specified access key is not found.',
    };
  }
  const signed = signedList.split(';');
  if (SIGNED_ALWAYS.some((name) => !signed.includes(name)) || [...signed].sort().join(';') !== signedList) {
    return { status: 400, code: 'IncompleteSignature', message: 'headers that must be signed are not' };
  }
  const payloadHash = createHash('sha256').update(body).digest('hex');
  if (h('x-acs-content-sha256') !== payloadHash) {
    return {
      status: 400,
      code: 'SignatureDoesNotMatch',
      message: 'the body does not match x-acs-content-sha256',
    };
  }
  const expected = createHmac('sha256', options.accessKeySecret)
    .update(stringToSign(req, signed, payloadHash))
    .digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
    return {
      status: 400,
      code: 'SignatureDoesNotMatch',
      message: 'Specified signature does not match our calculation.',
    };
  }
  const date = Date.parse(h('x-acs-date'));
  if (!Number.isFinite(date) || Math.abs(Date.now() - date) > MAX_CLOCK_SKEW_MS) {
    return { status: 400, code: 'InvalidTimeStamp.Expired', message: 'x-acs-date is too far from now' };
  }
  const nonce = h('x-acs-signature-nonce');
  if (nonces.has(nonce))
    return { status: 400, code: 'SignatureNonceUsed', message: 'the nonce was used already' };
  nonces.add(nonce);
  return null;
}

/** The V3 string to sign, rebuilt from the request as received. */
function stringToSign(req: IncomingMessage, signed: string[], payloadHash: string): string {
  const url = new URL(req.url ?? '/', 'http://fake.invalid');
  const query = [...url.searchParams.entries()]
    .map(([k, v]) => [rfc3986(k), rfc3986(v)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headers = signed.map((name) => `${name}:${String(req.headers[name] ?? '').trim()}\n`).join('');
  const canonical = [req.method, url.pathname || '/', query, headers, signed.join(';'), payloadHash].join(
    '\n',
  );
  return `ACS3-HMAC-SHA256\n${createHash('sha256').update(canonical).digest('hex')}`;
}

function rfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function checkMessage(query: URLSearchParams, options: FakeAliyunOptions): string | null {
  if (!/^(\+?86)?1[3-9]\d{9}$/.test(query.get('PhoneNumbers') ?? '')) return 'isv.MOBILE_NUMBER_ILLEGAL';
  if (query.get('SignName') !== options.signName) return 'isv.SMS_SIGNATURE_ILLEGAL';
  const variables = options.templates[query.get('TemplateCode') ?? ''];
  if (!variables) return 'isv.SMS_TEMPLATE_ILLEGAL';
  let params: unknown;
  try {
    params = JSON.parse(query.get('TemplateParam') ?? '{}');
  } catch {
    return 'isv.INVALID_JSON_PARAM';
  }
  if (!params || typeof params !== 'object' || Array.isArray(params)) return 'isv.INVALID_JSON_PARAM';
  const given = Object.keys(params);
  if (variables.some((v) => !given.includes(v))) return 'isv.TEMPLATE_MISSING_PARAMETERS';
  if (
    given.some((k) => !variables.includes(k) || typeof (params as Record<string, unknown>)[k] !== 'string')
  ) {
    return 'isv.TEMPLATE_PARAMS_ILLEGAL';
  }
  return null;
}
