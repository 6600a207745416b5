import type { HeldClaims } from './idempotency-context';

declare global {
  namespace Express {
    interface Request {
      /** The Idempotency-Key header's claim, once IdempotencyInterceptor holds it (see @Claims()). */
      idempotencyClaims?: HeldClaims;
    }
  }
}

export {};
