import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { renderError } from '../common/errors/all-exceptions.filter';
import { ApiError } from '../common/errors/api-error';
import { IdempotencyClaim, KeyRef } from './idempotency-context';
import { IdempotencyStore, StoredKey } from './idempotency.store';

/** How long a repeat waits for the first request with its key to finish before answering 409. */
export const IDEMPOTENCY_WAIT_MS = 10_000;
const POLL_MS = 50;

export interface KeySpec {
  ref: KeyRef;
  /** How the key is named to the client in errors: `Idempotency-Key` (header) or `idempotency_key` (body). */
  name: string;
  /** requestHash of what the key guards: a repeat must hash the same. */
  hash: string;
  successStatus: number;
  /**
   * Whether a 4xx answer is stored and replayed (the header: a key answers one request, whatever the answer), or
   * gives the key back (a body key names one effect, and a refused attempt made none).
   */
  keepRefusals: boolean;
  /** The 409 for the key used before with a different request. */
  mismatch(stored: StoredKey): ApiError;
}

export type KeyOutcome<T> =
  { replayed: false; status: number; body: T } | { replayed: true; status: number; body: unknown };

/**
 * Response fields that carry a credential shown once (an API key and secret, tokens, a webhook signing secret).
 * Such a response is never written to the idempotency table: only hashes of credentials are stored anywhere. The
 * key still guards the request, so a repeat is refused with 409 instead of running again or replaying a secret.
 */
const SECRET_FIELDS = new Set([
  'api_key',
  'api_secret',
  'access_token',
  'refresh_token',
  'secret',
  'signing_secret',
]);
const WITHHELD = { withheld: 'The original response carried a credential shown once; it is not stored.' };

/**
 * Runs a request at most once per idempotency key (product-decisions §4), whichever key it is: the Idempotency-Key header
 * (IdempotencyInterceptor), the body idempotency_key of task creation, an operator credit's key. The key is claimed
 * first (INSERT ... ON CONFLICT, autocommit), so concurrent repeats execute once: the others wait for the stored
 * answer and replay it, or get 409 idempotency_conflict with `in_progress` if it is still running after
 * IDEMPOTENCY_WAIT_MS. The same key for a different request is 409 at once. A claim left in progress by a dead
 * process is taken over by the next repeat (IdempotencyStore.claim).
 *
 * `execute` gets the claim; handed to the handler's idempotentTransaction, it stores the answer with the effect.
 * Otherwise (a request that moves no money) the answer is stored here once it is known; a 5xx, or a refusal when
 * the spec does not keep refusals, releases the key so a retry runs again.
 */
@Injectable()
export class IdempotencyKeys {
  constructor(private readonly store: IdempotencyStore) {}

  async run<T>(spec: KeySpec, execute: (claim: IdempotencyClaim) => Promise<T>): Promise<KeyOutcome<T>> {
    const start = await this.start(spec);
    if ('replay' in start) return { replayed: true, status: start.status, body: start.body };
    const claim: IdempotencyClaim = { ref: spec.ref, token: start.token, successStatus: spec.successStatus };
    let body: T;
    try {
      body = await execute(claim);
    } catch (err) {
      await this.refused(claim, spec, err);
      throw err;
    }
    await this.answered(claim, body);
    return { replayed: false, status: spec.successStatus, body };
  }

  private async start(
    spec: KeySpec,
  ): Promise<{ token: string } | { replay: true; status: number; body: unknown }> {
    const giveUpAt = Date.now() + IDEMPOTENCY_WAIT_MS;
    for (;;) {
      const found = await this.store.claim(spec.ref, spec.hash);
      if (found && 'token' in found) return found;
      if (found) {
        if (found.request_hash !== spec.hash) throw spec.mismatch(found);
        if (found.status_code !== null) {
          if (isWithheld(found.response)) {
            throw new ApiError(
              'idempotency_conflict',
              `The request with this ${spec.name} already succeeded; its response carried a credential shown once and is not replayed.`,
            );
          }
          return { replay: true, status: found.status_code, body: found.response };
        }
        if (Date.now() >= giveUpAt) {
          throw new ApiError(
            'idempotency_conflict',
            `A request with this ${spec.name} is still in progress; retry later.`,
            { in_progress: true },
          );
        }
      }
      await sleep(POLL_MS);
    }
  }

  /** Stores the answer, unless the effect's transaction did; a later, different final answer replaces that one. */
  private async answered(claim: IdempotencyClaim, body: unknown): Promise<void> {
    if (claim.recorded) {
      if (claim.recorded.body === body) return;
      const replace = () => this.store.replaceAnswer(claim, storable(body));
      // The answer stored with the effect stays true meanwhile, so the client gets its answer either way.
      await replace().catch(() => this.store.settleLater(claim.token, replace, 'answer'));
      return;
    }
    const complete = () => this.store.complete(claim, claim.successStatus, storable(body));
    try {
      await complete();
    } catch (err) {
      // The effect happened: repeats keep waiting until its answer is stored.
      this.store.settleLater(claim.token, complete, 'answer');
      throw err;
    }
  }

  private async refused(claim: IdempotencyClaim, spec: KeySpec, err: unknown): Promise<void> {
    const kept = spec.keepRefusals && err instanceof ApiError && err.status < 500 && !retryLater(err);
    const settle = kept
      ? () => this.store.complete(claim, err.status, renderError(err))
      : () => this.store.release(claim);
    await settle().catch(() => this.store.settleLater(claim.token, settle, kept ? 'answer' : 'release'));
  }
}

/** The form an answer is stored in: plain JSON, with a response carrying a credential shown once withheld. */
export function storable(body: unknown): unknown {
  if (carriesSecret(body)) return WITHHELD;
  return body === undefined ? null : JSON.parse(JSON.stringify(body));
}

/** "Still in progress, retry later" (from a body key inside a header key's request) is no answer to keep. */
function retryLater(err: ApiError): boolean {
  return err.code === 'idempotency_conflict' && err.extra.in_progress === true;
}

function carriesSecret(body: unknown): boolean {
  if (Array.isArray(body)) return body.some(carriesSecret);
  if (!body || typeof body !== 'object') return false;
  return Object.entries(body).some(([k, v]) => (SECRET_FIELDS.has(k) && v != null) || carriesSecret(v));
}

function isWithheld(stored: unknown): boolean {
  return (
    !!stored &&
    typeof stored === 'object' &&
    (stored as Record<string, unknown>).withheld === WITHHELD.withheld
  );
}
