import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import { errorFromResponse, LegworkConnectionError, LegworkError } from './errors';
import type { components, paths } from './generated/openapi';
import { PagePromise } from './pagination';
import { DEFAULT_RETRY, retryingFetch, type RetryOptions } from './retry';
import { verifyWebhook, type HeadersLike, type VerifyOptions, type WebhookEvent } from './webhooks';

export type Schemas = components['schemas'];

export interface LegworkOptions {
  /** An agent API key (`lw_test_...` or `lw_live_...`). Default: the LEGWORK_API_KEY environment variable. */
  apiKey?: string;
  /** The service's origin, without `/v1`. Default: LEGWORK_BASE_URL, else http://localhost:8000. */
  baseUrl?: string;
  /** Retries after the first attempt for connection errors, 409 in progress, 429 and 5xx (default 2). */
  maxRetries?: number;
  /** Backoff tuning: first delay and the cap, in ms. */
  retry?: Partial<Omit<RetryOptions, 'maxRetries'>>;
  /** Per call, retries included, in ms (default 60 000). */
  timeoutMs?: number;
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
}

/** Per call. */
export interface RequestOptions {
  /** The Idempotency-Key of a write; default a fresh UUID per call, kept across its retries. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

/**
 * The Legwork API client for agents (`/v1`). Each resource method is one request; writes carry an Idempotency-Key
 * (kept across the SDK's retries, so a write retried after a lost answer runs once); an error answer is thrown as a
 * LegworkError subclass carrying the envelope's fields.
 */
export class Legwork {
  readonly account: Account;
  readonly tasks: Tasks;
  readonly balance: Balance;
  readonly payments: Payments;
  readonly events: Events;
  readonly webhooks: Webhooks;
  readonly sandbox: Sandbox;
  /** The typed openapi-fetch client underneath, for /v1 operations without a resource method. */
  readonly api: Client<paths>;
  private readonly timeoutMs: number;

  constructor(opts: LegworkOptions = {}) {
    const apiKey = opts.apiKey ?? process.env.LEGWORK_API_KEY;
    if (!apiKey)
      throw new LegworkError('No API key: pass apiKey or set LEGWORK_API_KEY', { code: 'no_api_key' });
    const baseUrl = (opts.baseUrl ?? process.env.LEGWORK_BASE_URL ?? 'http://localhost:8000').replace(
      /\/+$/,
      '',
    );
    const retry: RetryOptions = {
      ...DEFAULT_RETRY,
      ...opts.retry,
      maxRetries: opts.maxRetries ?? DEFAULT_RETRY.maxRetries,
    };
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    const baseFetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
    this.api = createClient<paths>({
      baseUrl,
      headers: { Authorization: `Bearer ${apiKey}`, 'User-Agent': 'legwork-sdk-node/0.1.0' },
      fetch: retryingFetch(baseFetch, retry),
    });
    this.account = new Account(this);
    this.tasks = new Tasks(this);
    this.balance = new Balance(this);
    this.payments = new Payments(this);
    this.events = new Events(this);
    this.webhooks = new Webhooks(this);
    this.sandbox = new Sandbox(this);
  }

  /** @internal Runs one call: typed answer, or a thrown LegworkError. */
  async request<T>(
    write: boolean,
    opts: RequestOptions | undefined,
    run: (init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<Answer<T>>,
  ): Promise<T> {
    const idempotencyKey = write ? (opts?.idempotencyKey ?? randomUUID()) : undefined;
    const headers: Record<string, string> = idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {};
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = opts?.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    let answer: Answer<T>;
    try {
      answer = await run({ headers, signal });
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
    return answer.data as T;
  }
}

abstract class Resource {
  constructor(protected readonly client: Legwork) {}
  protected get api() {
    return this.client.api;
  }
}

export type TaskListParams = NonNullable<paths['/v1/tasks']['get']['parameters']['query']>;

export class Tasks extends Resource {
  /** Prices a task without creating it: cost split, whether the balance covers it, refunds, workers nearby. */
  quote(body: Schemas['CreateTaskRequest'], opts?: RequestOptions) {
    return this.client.request(true, opts, (init) => this.api.POST('/v1/tasks/quote', { body, ...init }));
  }
  /** Creates a task, holding budget_cents x max_workers in escrow (402 LegworkInsufficientBalanceError if short). */
  create(body: Schemas['CreateTaskRequest'], opts?: RequestOptions) {
    return this.client.request(true, opts, (init) => this.api.POST('/v1/tasks/create', { body, ...init }));
  }
  get(taskId: string, opts?: RequestOptions) {
    return this.client.request(false, opts, (init) =>
      this.api.GET('/v1/tasks/{task_id}', { params: { path: { task_id: taskId } }, ...init }),
    );
  }
  /** Your tasks, newest first: await for a page, or `for await` over every task. */
  list(
    params: Omit<TaskListParams, 'starting_after'> & { starting_after?: string } = {},
    opts?: RequestOptions,
  ) {
    return new PagePromise(
      (startingAfter) =>
        this.client.request(false, opts, (init) =>
          this.api.GET('/v1/tasks', {
            params: { query: { ...params, starting_after: startingAfter } },
            ...init,
          }),
        ),
      params.starting_after,
    );
  }
  /** The task's result (see GET /v1/tasks/{id}/result for when it is available). */
  result(taskId: string, opts?: RequestOptions) {
    return this.client.request(false, opts, (init) =>
      this.api.GET('/v1/tasks/{task_id}/result', { params: { path: { task_id: taskId } }, ...init }),
    );
  }
  /** Accepts (`accept_result: true`) or rejects a submitted result, optionally one assignment's. */
  review(taskId: string, body: Schemas['TaskFeedbackRequest'], opts?: RequestOptions) {
    return this.client.request(true, opts, (init) =>
      this.api.POST('/v1/tasks/{task_id}/feedback', { params: { path: { task_id: taskId } }, body, ...init }),
    );
  }
  cancel(taskId: string, opts?: RequestOptions) {
    return this.client.request(true, opts, (init) =>
      this.api.POST('/v1/tasks/{task_id}/cancel', { params: { path: { task_id: taskId } }, ...init }),
    );
  }
}

export class Account extends Resource {
  /** Your account: balance, tier, rate limits, the open-task limit (needs `payment:read` with an API key). */
  retrieve(opts?: RequestOptions) {
    return this.client.request(false, opts, (init) => this.api.GET('/v1/agent/me', init));
  }
}

export class Balance extends Resource {
  retrieve(opts?: RequestOptions) {
    return this.client.request(false, opts, (init) => this.api.GET('/v1/payment/balance', init));
  }
}

export class Payments extends Resource {
  /** Tops up the balance: a payment order whose pay_url the payer opens. */
  recharge(body: Schemas['RechargeRequest'], opts?: RequestOptions) {
    return this.client.request(true, opts, (init) =>
      this.api.POST('/v1/payment/recharge', { body, ...init }),
    );
  }
  create(body: Schemas['CreatePaymentRequest'], opts?: RequestOptions) {
    return this.client.request(true, opts, (init) => this.api.POST('/v1/payment/create', { body, ...init }));
  }
  retrieve(
    orderId: string,
    paymentMethod: Schemas['CreatePaymentRequest']['payment_method'],
    opts?: RequestOptions,
  ) {
    return this.client.request(false, opts, (init) =>
      this.api.GET('/v1/payment/query/{order_id}', {
        params: { path: { order_id: orderId }, query: { payment_method: paymentMethod } },
        ...init,
      }),
    );
  }
  refund(body: Schemas['RefundRequest'], opts?: RequestOptions) {
    return this.client.request(true, opts, (init) => this.api.POST('/v1/payment/refund', { body, ...init }));
  }
}

export type EventListParams = NonNullable<paths['/v1/agent/events']['get']['parameters']['query']>;

export class Events extends Resource {
  /** Your events, newest first, in the webhook payload shape: await for a page, or `for await` over all. */
  list(params: EventListParams = {}, opts?: RequestOptions) {
    return new PagePromise<WebhookEvent>(
      (startingAfter) =>
        this.client.request(false, opts, (init) =>
          this.api.GET('/v1/agent/events', {
            params: { query: { ...params, starting_after: startingAfter } },
            ...init,
          }),
        ),
      params.starting_after,
    );
  }
  redeliver(eventId: string, opts?: RequestOptions) {
    return this.client.request(true, opts, (init) =>
      this.api.POST('/v1/agent/events/{event_id}/redeliver', {
        params: { path: { event_id: eventId } },
        ...init,
      }),
    );
  }
}

export class Webhooks extends Resource {
  /** Registers an endpoint; the answer's `secret` (shown only here) is what verify() needs. Needs webhook:manage. */
  create(body: Schemas['CreateWebhookRequest'], opts?: RequestOptions) {
    return this.client.request(true, opts, (init) => this.api.POST('/v1/agent/webhooks', { body, ...init }));
  }
  list(opts?: RequestOptions) {
    return this.client.request(false, opts, (init) => this.api.GET('/v1/agent/webhooks', init));
  }
  async remove(id: string, opts?: RequestOptions): Promise<void> {
    await this.client.request(true, opts, (init) =>
      this.api.DELETE('/v1/agent/webhooks/{id}', { params: { path: { id } }, ...init }),
    );
  }
  /** Sends a webhook.test delivery to the endpoint now and answers how it went. */
  test(id: string, opts?: RequestOptions) {
    return this.client.request(true, opts, (init) =>
      this.api.POST('/v1/agent/webhooks/{id}/test', { params: { path: { id } }, ...init }),
    );
  }
  deliveries(
    id: string,
    params: NonNullable<paths['/v1/agent/webhooks/{id}/deliveries']['get']['parameters']['query']> = {},
    opts?: RequestOptions,
  ) {
    return new PagePromise(
      (startingAfter) =>
        this.client.request(false, opts, (init) =>
          this.api.GET('/v1/agent/webhooks/{id}/deliveries', {
            params: { path: { id }, query: { ...params, starting_after: startingAfter } },
            ...init,
          }),
        ),
      params.starting_after,
    );
  }
  /** Checks a delivery's Legwork-Signature and answers its event (see verifyWebhook). */
  verify(
    rawBody: string | Uint8Array,
    headers: HeadersLike,
    secret: string,
    opts?: VerifyOptions,
  ): WebhookEvent {
    return verifyWebhook(rawBody, headers, secret, opts);
  }
}

class SandboxBalance extends Resource {
  /** Adds test money at once (a real sandbox recharge, paid and credited). */
  fund(body: Schemas['SandboxBalanceRequest'], opts?: RequestOptions) {
    return this.client.request(true, opts, (init) => this.api.POST('/v1/sandbox/balance', { body, ...init }));
  }
}

class SandboxWorkers extends Resource {
  create(body: Schemas['CreateSandboxWorkerRequest'], opts?: RequestOptions) {
    return this.client.request(true, opts, (init) => this.api.POST('/v1/sandbox/workers', { body, ...init }));
  }
  list(opts?: RequestOptions) {
    return this.client.request(false, opts, (init) => this.api.GET('/v1/sandbox/workers', init));
  }
  get(workerId: string, opts?: RequestOptions) {
    return this.client.request(false, opts, (init) =>
      this.api.GET('/v1/sandbox/workers/{worker_id}', { params: { path: { worker_id: workerId } }, ...init }),
    );
  }
  update(workerId: string, body: Schemas['UpdateSandboxWorkerRequest'], opts?: RequestOptions) {
    return this.client.request(true, opts, (init) =>
      this.api.PATCH('/v1/sandbox/workers/{worker_id}', {
        params: { path: { worker_id: workerId } },
        body,
        ...init,
      }),
    );
  }
  remove(workerId: string, opts?: RequestOptions) {
    return this.client.request(true, opts, (init) =>
      this.api.DELETE('/v1/sandbox/workers/{worker_id}', {
        params: { path: { worker_id: workerId } },
        ...init,
      }),
    );
  }
}

class SandboxClocks extends Resource {
  create(body: Schemas['CreateTestClockRequest'] = {}, opts?: RequestOptions) {
    return this.client.request(true, opts, (init) => this.api.POST('/v1/sandbox/clocks', { body, ...init }));
  }
  list(opts?: RequestOptions) {
    return this.client.request(false, opts, (init) => this.api.GET('/v1/sandbox/clocks', init));
  }
  get(clockId: string, opts?: RequestOptions) {
    return this.client.request(false, opts, (init) =>
      this.api.GET('/v1/sandbox/clocks/{clock_id}', { params: { path: { clock_id: clockId } }, ...init }),
    );
  }
  /** Moves the clock forward (`by_seconds` or `to`), running everything due on its tasks in time order. */
  advance(clockId: string, body: Schemas['AdvanceTestClockRequest'], opts?: RequestOptions) {
    return this.client.request(true, opts, (init) =>
      this.api.POST('/v1/sandbox/clocks/{clock_id}/advance', {
        params: { path: { clock_id: clockId } },
        body,
        ...init,
      }),
    );
  }
  remove(clockId: string, opts?: RequestOptions) {
    return this.client.request(true, opts, (init) =>
      this.api.DELETE('/v1/sandbox/clocks/{clock_id}', { params: { path: { clock_id: clockId } }, ...init }),
    );
  }
}

/** Sandbox mode only (`lw_test_` keys): test money, simulated workers, test clocks. */
export class Sandbox extends Resource {
  readonly balance = new SandboxBalance(this.client);
  readonly workers = new SandboxWorkers(this.client);
  readonly clocks = new SandboxClocks(this.client);
}
