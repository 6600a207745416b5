import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, lastValueFrom, map, Observable } from 'rxjs';
import { ApiError } from '../common/errors/api-error';
import { withRequestId } from '../common/errors/all-exceptions.filter';
import { requestHash } from './canonical-json';
import { IdempotencyKeys, KeySpec } from './idempotency-keys';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The `Idempotency-Key` header on any agent POST, PUT, PATCH or DELETE (product-decisions §4), run through IdempotencyKeys:
 * repeats replay the stored status and body with `Idempotent-Replayed: true`; the same key with a different method,
 * path or body is 409 idempotency_conflict. 2xx and 4xx answers are stored for 24 hours; a 5xx releases the key so
 * a retry runs again. Handlers that move money store their answer inside their own transaction
 * (idempotentTransaction), with the claim this request holds (`req.idempotencyClaims`, read by @Claims()).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor<unknown, unknown> {
  constructor(private readonly keys: IdempotencyKeys) {}

  intercept(context: ExecutionContext, next: CallHandler<unknown>): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const key = req.header('idempotency-key');
    if (req.actor?.kind !== 'agent' || !MUTATING.has(req.method) || key === undefined) return next.handle();
    if (key.length < 1 || key.length > 255) {
      throw ApiError.field('Idempotency-Key', 'must be 1 to 255 characters');
    }
    const spec: KeySpec = {
      ref: { agentId: req.actor.id, scope: 'request', key },
      name: 'Idempotency-Key',
      hash: requestHash(req.method, req.originalUrl, req.body ?? null),
      // Nest sets the route's success status (@HttpCode, else 201 for POST) before interceptors run.
      successStatus: res.statusCode,
      keepRefusals: true,
      mismatch: () =>
        new ApiError(
          'idempotency_conflict',
          'This Idempotency-Key was already used for a different request (method, path or body).',
        ),
    };
    // The handler runs when subscribed, holding the claim: a handler that moves money passes it (@Claims()) to its
    // idempotentTransaction, which stores the answer with the effect.
    const run = this.keys.run(spec, (claim) => {
      req.idempotencyClaims = [claim];
      return lastValueFrom(next.handle(), { defaultValue: undefined });
    });
    return from(run).pipe(
      map((outcome) => {
        if (outcome.replayed) {
          res.status(outcome.status);
          res.setHeader('Idempotent-Replayed', 'true');
          // A stored error envelope has no request_id: it gets this request's, like every error does.
          return outcome.status >= 400 ? withRequestId(outcome.body, req.id) : outcome.body;
        }
        return outcome.body;
      }),
    );
  }
}
