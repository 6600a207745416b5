import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { AuditActor } from './operator-audit';

/**
 * The operator making this request, as the audit log names them: their account, the session their access token
 * belongs to and the request id. For routes with `@Auth({ actors: ['admin'] })` only (the guard has set the actor).
 */
export const OperatorRequest = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuditActor => {
  const req = ctx.switchToHttp().getRequest<Request>();
  const actor = req.actor;
  if (actor?.kind !== 'admin') throw new Error('OperatorRequest on a route that is not for operators');
  return { source: 'api', adminId: actor.id, sessionId: actor.sessionId, requestId: req.id, ip: null };
});

/** Where a public request came from (the sign-in routes): its id and the client's address (TRUST_PROXY applies). */
export interface RequestOrigin {
  requestId: string;
  ip: string | null;
}

export const Origin = createParamDecorator((_data: unknown, ctx: ExecutionContext): RequestOrigin => {
  const req = ctx.switchToHttp().getRequest<Request>();
  return { requestId: req.id, ip: req.ip ?? null };
});
