import type { Response } from 'supertest';
import { ERRORS, ErrorCode } from '../../src/common/errors/error-catalog';
import { OpenApiDoc, Operation, validate } from '../support/openapi-schemas';

/**
 * What the fuzz passes require of every answer, and the credentials they send: shared by the random pass
 * (openapi-fuzz) and the deterministic one (field-paths).
 */

export type AuthKind = 'valid' | 'alternative' | 'none' | 'other_actor' | 'garbage';

/** The callers the credentials come from. */
export interface Callers {
  agent: { key: string; bearer: string; apiSecret: string };
  other: { key: string };
  worker: { bearer: string };
  adminBearer: string;
}

export function credentials(op: Operation, kind: AuthKind, c: Callers): Record<string, string> {
  const bySchema: Record<string, Record<string, string>> = {
    api_key: { Authorization: c.agent.key },
    agent_jwt: { Authorization: c.agent.bearer },
    worker_jwt: { Authorization: c.worker.bearer },
    admin_jwt: { Authorization: c.adminBearer },
    api_secret: { 'X-API-Secret': c.agent.apiSecret },
  };
  const requirements = op.security ?? [];
  const pick = (i: number): Record<string, string> =>
    Object.assign({}, ...Object.keys(requirements[i] ?? {}).map((s) => bySchema[s] ?? {}));
  switch (kind) {
    case 'valid':
      return requirements.length ? pick(0) : {};
    case 'alternative':
      return requirements.length ? pick(requirements.length - 1) : { Authorization: c.other.key };
    case 'none':
      return {};
    case 'other_actor': {
      const schemes = new Set(requirements.flatMap((r) => Object.keys(r)));
      if (!schemes.has('worker_jwt')) return { Authorization: c.worker.bearer };
      return { Authorization: c.other.key };
    }
    case 'garbage':
      return { Authorization: 'Bearer lw_test_not-a-real-key' };
  }
}

const GENERIC_4XX = new Set<number>(
  Object.values(ERRORS)
    .map((e) => e.status)
    .filter((s) => s >= 400 && s < 500),
);
const ERROR_SCHEMA = { $ref: '#/components/schemas/ErrorEnvelope' };

/**
 * Where an answer departs from the reference: not a 5xx (unless that 5xx is documented for the operation, e.g. a
 * provider being down); a status documented for the operation or a generic 4xx from the error list; JSON; for 4xx
 * the error envelope {error: {code, message, request_id, ...}} with a code from the error catalogue whose status
 * is the answer's and only context fields the error schema declares, and a validation error naming at least one
 * field; for 2xx a body that matches the documented response schema. Provider callbacks answer in the provider's protocol, so there only an unhandled error counts.
 */
export function problems(doc: OpenApiDoc, op: Operation, res: Response): string[] {
  const out: string[] = [];
  // Provider notifications answer in the provider's own protocol (WeChat Pay: 4xx/5xx {"code":"FAIL"} makes it
  // deliver again); only an unhandled error is a failure there.
  if (op.tags?.includes('provider callbacks')) {
    const code = (res.body as { error?: { code?: string } } | undefined)?.error?.code;
    return code === 'internal_error' ? ['unhandled error in a provider callback'] : [];
  }
  const documented = op.responses[String(res.status)];
  if (res.status >= 500 && !documented) out.push(`undocumented server error ${res.status}`);
  if (!documented && !GENERIC_4XX.has(res.status)) out.push(`status ${res.status} is not documented`);
  const type = String(res.headers['content-type'] ?? '');
  if (res.status === 204) return res.text ? [...out, '204 with a body'] : out;
  if (res.status >= 400) return [...out, ...errorProblems(doc, res, type)];
  const content = documented?.content;
  if (!content) return out;
  const json = content['application/json'];
  if (!json) {
    const types = Object.keys(content);
    if (!types.some((t) => type.startsWith(t))) out.push(`answered ${type}, documented ${types.join(', ')}`);
    return out;
  }
  if (!type.includes('application/json'))
    return [...out, `answered ${type || 'no content type'}, documented JSON`];
  return [...out, ...validate(doc, json.schema, res.body).slice(0, 5)];
}

function errorProblems(doc: OpenApiDoc, res: Response, type: string): string[] {
  if (!type.includes('application/json')) return [`error answered as ${type || 'no content type'}`];
  const error = (res.body as { error?: { code?: unknown; message?: unknown } }).error;
  const code = String(error?.code);
  if (!error || typeof error.message !== 'string') return ['no {error: {code, message}} envelope'];
  const out: string[] = [];
  // A refusal says which field: details naming none means the value got past validation to the database.
  const details = (error as { details?: unknown }).details;
  if (code === 'validation_error' && (!Array.isArray(details) || details.length === 0))
    out.push('a validation error naming no field');
  if (!(code in ERRORS)) out.push(`error code ${code} is not in the error catalogue`);
  else if (ERRORS[code as ErrorCode].status !== res.status)
    out.push(`error code ${code} answered with status ${res.status}`);
  // The envelope matches the error schema, and every context field is one the schema declares.
  out.push(...validate(doc, ERROR_SCHEMA, res.body).slice(0, 5));
  const declared = new Set(Object.keys(doc.components.schemas.ErrorBody.properties ?? {}));
  const undeclared = Object.keys(error).filter((k) => !declared.has(k));
  if (undeclared.length) out.push(`error fields not in the schema: ${undeclared.join(', ')}`);
  return out;
}

export function truncate(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s && s.length > 600 ? `${s.slice(0, 600)}… (${s.length} chars)` : s;
}
