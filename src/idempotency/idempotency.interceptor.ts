import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, mergeMap, Observable, of } from 'rxjs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../common/errors/api-error';
import { renderError, withRequestId } from '../common/errors/all-exceptions.filter';
import { requestHash } from './canonical-json';
import { IdempotencyClaim, idempotencyClaims } from './idempotency-context';
import { IdempotencyStore } from './idempotency.store';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** How long a repeat waits for the first request with its key to finish before answering 409. */
export const IDEMPOTENCY_WAIT_MS = 10_000;
const POLL_MS = 50;

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

type Start = { kind: 'execute'; token: string } | { kind: 'replay'; status: number; body: unknown };

/**
 * The `Idempotency-Key` header on any agent POST, PUT, PATCH or DELETE (decisions §4). The key is claimed before
 * the handler runs (INSERT ... ON CONFLICT, autocommit), so concurrent repeats execute once: the others wait for
 * the stored response and replay it with `Idempotent-Replayed: true`, or get 409 idempotency_conflict if it is
 * still running after IDEMPOTENCY_WAIT_MS. The same key with a different method, path or body is 409 at once.
 * 2xx and 4xx answers are stored for 24 hours; a 5xx releases the key so a retry runs again. Responses that carry
 * a credential shown once are not stored (see SECRET_FIELDS).
 *
 * Crashes: a claim left in progress by a dead process is taken over by the next repeat (IdempotencyStore.claim).
 * Handlers that move money store their answer inside their own transaction (recordIdempotentResponse), which the
 * handler finds through an AsyncLocalStorage claim; the write here is then skipped.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly store: IdempotencyStore) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const key = req.header('idempotency-key');
    if (req.actor?.kind !== 'agent' || !MUTATING.has(req.method) || key === undefined) return next.handle();
    if (key.length < 1 || key.length > 255) {
      throw ApiError.field('Idempotency-Key', 'must be 1 to 255 characters');
    }
    const agentId = req.actor.id;
    const hash = requestHash(req.method, req.originalUrl, req.body ?? null);
    // Nest sets the route's success status (@HttpCode, else 201 for POST) before interceptors run.
    const successStatus = res.statusCode;
    return from(this.start(agentId, key, hash)).pipe(
      mergeMap((start) => {
        if (start.kind === 'replay') {
          res.status(start.status);
          res.setHeader('Idempotent-Replayed', 'true');
          // A stored error envelope has no request_id: it gets this request's, like every error does.
          return of(start.status >= 400 ? withRequestId(start.body, req.id) : start.body);
        }
        const claim = { agentId, key, token: start.token, successStatus, recorded: false };
        return this.execute(next, res, claim);
      }),
    );
  }

  private execute(next: CallHandler, res: Response, claim: IdempotencyClaim): Observable<unknown> {
    const { agentId, key, token } = claim;
    return new Observable((subscriber) => {
      // The handler runs when subscribed: inside the claim's context, so its transaction can find the claim.
      const sub = idempotencyClaims.run(claim, () =>
        next.handle().subscribe({
          next: (body) => {
            if (claim.recorded) {
              subscriber.next(body);
              subscriber.complete();
              return;
            }
            const stored = carriesSecret(body) ? WITHHELD : toJson(body);
            const complete = () => this.store.complete(agentId, key, token, res.statusCode, stored);
            complete().then(
              () => {
                subscriber.next(body);
                subscriber.complete();
              },
              (err: unknown) => {
                // The effect happened: repeats keep waiting until its answer is stored.
                this.store.settleLater(token, complete, 'answer');
                subscriber.error(err);
              },
            );
          },
          error: (err: unknown) => {
            const answered = err instanceof ApiError && err.status < 500;
            const settle = answered
              ? () => this.store.complete(agentId, key, token, err.status, renderError(err))
              : () => this.store.release(agentId, key, token);
            settle().then(
              () => subscriber.error(err),
              () => {
                this.store.settleLater(token, settle, answered ? 'answer' : 'release');
                subscriber.error(err);
              },
            );
          },
        }),
      );
      return () => sub.unsubscribe();
    });
  }

  private async start(agentId: string, key: string, hash: string): Promise<Start> {
    const giveUpAt = Date.now() + IDEMPOTENCY_WAIT_MS;
    for (;;) {
      const claim = await this.store.claim(agentId, key, hash);
      if (claim && 'token' in claim) return { kind: 'execute', token: claim.token };
      if (claim) {
        if (claim.request_hash !== hash) {
          throw new ApiError(
            'idempotency_conflict',
            'This Idempotency-Key was already used for a different request (method, path or body).',
          );
        }
        if (claim.status_code !== null) {
          if (isWithheld(claim.response)) {
            throw new ApiError(
              'idempotency_conflict',
              'The request with this Idempotency-Key already succeeded; its response carried a credential shown once and is not replayed.',
            );
          }
          return { kind: 'replay', status: claim.status_code, body: claim.response };
        }
        if (Date.now() >= giveUpAt) {
          throw new ApiError(
            'idempotency_conflict',
            'A request with this Idempotency-Key is still in progress; retry later.',
            { in_progress: true },
          );
        }
      }
      await sleep(POLL_MS);
    }
  }
}

function toJson(body: unknown): unknown {
  return body === undefined ? null : JSON.parse(JSON.stringify(body));
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
