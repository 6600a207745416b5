import type { Actor } from '../actor';

declare global {
  namespace Express {
    interface Request {
      id: string;
      rawBody?: Buffer;
      /** Who is calling: set by the global AuthGuard (passport writes it here instead of req.user). */
      actor?: Actor;
    }
  }
}

export {};
