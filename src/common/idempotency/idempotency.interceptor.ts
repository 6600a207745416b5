import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, mergeMap, Observable, of } from 'rxjs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../errors/api-error';
import { renderError } from '../errors/all-exceptions.filter';
import { requestHash } from './canonical-json';
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

type Start = { kind: 'execute' } | { kind: 'replay'; status: number; body: unknown };

/**
 * The `Idempotency-Key` header on any agent POST, PUT, PATCH or DELETE (decisions §4). The key is claimed before
 * the handler runs (INSERT ... ON CONFLICT, autocommit), so concurrent repeats execute once: the others wait for
 * the stored response and replay it with `Idempotent-Replayed: true`, or get 409 idempotency_conflict if it is
 * still running after IDEMPOTENCY_WAIT_MS. The same key with a different method, path or body is 409 at once.
 * 2xx and 4xx answers are stored for 24 hours; a 5xx releases the key so a retry runs again. Responses that carry
 * a credential shown once are not stored (see SECRET_FIELDS).
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
    return from(this.start(agentId, key, hash)).pipe(
      mergeMap((start) => {
        if (start.kind === 'replay') {
          res.status(start.status);
          res.setHeader('Idempotent-Replayed', 'true');
          return of(start.body);
        }
        return this.execute(next, res, agentId, key);
      }),
    );
  }

  private execute(next: CallHandler, res: Response, agentId: string, key: string): Observable<unknown> {
    return new Observable((subscriber) => {
      const sub = next.handle().subscribe({
        next: (body) => {
          const stored = carriesSecret(body) ? WITHHELD : toJson(body);
          this.store.complete(agentId, key, res.statusCode, stored).then(
            () => {
              subscriber.next(body);
              subscriber.complete();
            },
            (err: unknown) => subscriber.error(err),
          );
        },
        error: (err: unknown) => {
          const stored =
            err instanceof ApiError && err.status < 500
              ? this.store.complete(agentId, key, err.status, renderError(err))
              : this.store.release(agentId, key);
          stored.then(
            () => subscriber.error(err),
            () => subscriber.error(err),
          );
        },
      });
      return () => sub.unsubscribe();
    });
  }

  private async start(agentId: string, key: string, hash: string): Promise<Start> {
    const giveUpAt = Date.now() + IDEMPOTENCY_WAIT_MS;
    for (;;) {
      const claim = await this.store.claim(agentId, key, hash);
      if (claim === true) return { kind: 'execute' };
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
