import { randomUUID } from 'node:crypto';
import type { Client } from 'openapi-fetch';
import { errorFromResponse, LegworkConnectionError, LegworkError } from './errors';
import type { paths } from './generated/openapi';
import { lastResponseOf, withLastResponse, type WithLastResponse } from './response';

/** The HTTP verbs of the /v1 operations the client calls. */
export type Verb = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Per call. */
export interface RequestOptions {
  /** The Idempotency-Key of a write; default a fresh UUID per call, kept across its retries. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** One request, as a method of the table builds it. */
export interface Call {
  verb: Verb;
  /** The path template, `/v1/tasks/{task_id}`. */
  path: string;
  pathParams?: Record<string, string>;
  query?: object;
  body?: unknown;
}

type Answer = { data?: unknown; error?: unknown; response: Response };
/** openapi-fetch's `request`, for calls whose path and verb are checked by the method table's types instead. */
type UntypedRequest = (method: string, url: string, init: object) => Promise<Answer>;

/**
 * Sends the calls of one client: the only place that turns a verb into an Idempotency-Key, an answer into a result
 * with `lastResponse`, and a failure into a LegworkError. Retries happen below it (retryingFetch), on the same
 * Request, so a write's key is the same on every attempt.
 */
export class Requester {
  private readonly request: UntypedRequest;

  constructor(
    api: Client<paths>,
    private readonly timeoutMs: number,
    /** Whether writes carry an Idempotency-Key: the API keys them per agent, so only an authenticated client does. */
    private readonly idempotencyKeys: boolean,
  ) {
    this.request = (api.request as unknown as UntypedRequest).bind(api);
  }

  async send<T>(call: Call, opts: RequestOptions = {}): Promise<WithLastResponse<T>> {
    const write = call.verb !== 'GET';
    const idempotencyKey = write && this.idempotencyKeys ? (opts.idempotencyKey ?? randomUUID()) : undefined;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    const init = {
      params: { path: call.pathParams, query: call.query },
      body: call.body,
      headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {},
      signal,
    };
    let answer: Answer;
    try {
      answer = await this.request(call.verb, call.path, init);
    } catch (cause) {
      if (cause instanceof LegworkError) throw cause;
      const message = cause instanceof Error ? cause.message : String(cause);
      throw new LegworkConnectionError(`Request failed without an answer: ${message}`, {
        code: signal.aborted ? 'timeout' : 'connection_error',
        idempotencyKey,
        cause,
      });
    }
    if (!answer.response.ok) throw errorFromResponse(answer.response.status, answer.error, idempotencyKey);
    return withLastResponse(answer.data as T, lastResponseOf(answer.response, idempotencyKey));
  }
}
