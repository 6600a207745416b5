import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { HeldClaims } from './idempotency-context';

/**
 * The idempotency claims the request holds (the Idempotency-Key header's, see IdempotencyInterceptor), for a
 * handler whose service stores its answer with its effect (idempotentTransaction); none without the header.
 */
export const Claims = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): HeldClaims =>
    ctx.switchToHttp().getRequest<Request>().idempotencyClaims ?? [],
);
