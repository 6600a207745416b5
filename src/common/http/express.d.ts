import type { Actor } from '../actor';

declare global {
  namespace Express {
    interface Request {
      id: string;
      rawBody?: Buffer;
      /** Who is calling: set by the global AuthGuard from what its passport strategies resolved. */
      actor?: Actor;
    }
  }
}

export {};
