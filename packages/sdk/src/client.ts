import createClient, { type Client } from 'openapi-fetch';
import { LegworkError } from './errors';
import type { components, paths } from './generated/openapi';
import { Requester, type RequestOptions } from './requester';
import { Account } from './resources/account';
import { SpendApprovals } from './resources/spend-approvals';
import { Balance } from './resources/balance';
import { Events } from './resources/events';
import { Payments } from './resources/payments';
import { Sandbox } from './resources/sandbox';
import { Tasks } from './resources/tasks';
import { Webhooks } from './resources/webhooks';
import type { WithLastResponse } from './response';
import { DEFAULT_RETRY, retryingFetch, type RetryOptions } from './retry';

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

/** Legwork.register's options: the client's, without a key, and no retries unless asked (see register). */
export type RegisterOptions = Omit<LegworkOptions, 'apiKey'> & Pick<RequestOptions, 'signal'>;

/** What registering answers: the new account's tokens, and its API key and secret, shown this once. */
export type Registration = WithLastResponse<
  Omit<Schemas['AgentAuthResponse'], 'api_key' | 'api_secret'> & { api_key: string; api_secret: string }
>;

const USER_AGENT = 'legwork-sdk-node/0.1.0';

function transport(opts: LegworkOptions, defaultRetries: number, headers: Record<string, string>) {
  const baseUrl = (opts.baseUrl ?? process.env.LEGWORK_BASE_URL ?? 'http://localhost:8000').replace(
    /\/+$/,
    '',
  );
  const retry: RetryOptions = {
    ...DEFAULT_RETRY,
    ...opts.retry,
    maxRetries: opts.maxRetries ?? defaultRetries,
  };
  const baseFetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
  const api: Client<paths> = createClient<paths>({
    baseUrl,
    headers: { ...headers, 'User-Agent': USER_AGENT },
    fetch: retryingFetch(baseFetch, retry),
  });
  return { api, timeoutMs: opts.timeoutMs ?? 60_000 };
}

/**
 * The Legwork API client for agents (`/v1`). Each resource method is one request declared from its verb and path;
 * writes carry an Idempotency-Key (kept across the SDK's retries, so a write retried after a lost answer runs
 * once); every result carries `lastResponse`; an error answer is thrown as a LegworkError subclass carrying the
 * envelope's fields.
 */
export class Legwork {
  readonly account: Account;
  readonly tasks: Tasks;
  readonly balance: Balance;
  readonly payments: Payments;
  readonly events: Events;
  readonly webhooks: Webhooks;
  readonly sandbox: Sandbox;
  readonly spendApprovals: SpendApprovals;
  /** The typed openapi-fetch client underneath, for /v1 operations without a resource method. */
  readonly api: Client<paths>;

  constructor(opts: LegworkOptions = {}) {
    const apiKey = opts.apiKey ?? process.env.LEGWORK_API_KEY;
    if (!apiKey)
      throw new LegworkError('No API key: pass apiKey or set LEGWORK_API_KEY', { code: 'no_api_key' });
    const { api, timeoutMs } = transport(opts, DEFAULT_RETRY.maxRetries, {
      Authorization: `Bearer ${apiKey}`,
    });
    this.api = api;
    const requester = new Requester(api, timeoutMs, true);
    this.account = new Account(requester);
    this.tasks = new Tasks(requester);
    this.balance = new Balance(requester);
    this.payments = new Payments(requester);
    this.events = new Events(requester);
    this.webhooks = new Webhooks(requester);
    this.sandbox = new Sandbox(requester);
    this.spendApprovals = new SpendApprovals(requester);
  }

  /**
   * Creates an agent account (POST /v1/agent/register) and answers its API key (`api_key`, shown only here), its
   * API secret and session tokens: then `new Legwork({ apiKey: registration.api_key })`. Needs no key.
   * Registering is not idempotent (the API keys idempotency per agent, and there is none yet): a retry after a
   * lost answer would find the email taken and the key gone, so it is sent once unless `maxRetries` says otherwise.
   */
  static async register(
    body: Schemas['AgentRegisterRequest'],
    opts: RegisterOptions = {},
  ): Promise<Registration> {
    const { api, timeoutMs } = transport(opts, 0, {});
    const registration = await new Requester(api, timeoutMs, false).send<Schemas['AgentAuthResponse']>(
      { verb: 'POST', path: '/v1/agent/register', body },
      { signal: opts.signal },
    );
    if (typeof registration.api_key !== 'string' || typeof registration.api_secret !== 'string')
      throw new LegworkError('The registration answered no API key', {
        status: registration.lastResponse.status,
        code: 'unexpected_response',
      });
    return registration as Registration;
  }
}
