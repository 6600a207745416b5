import type { Actor } from '../actor';

declare global {
  namespace Express {
    interface Request {
      id: string;
      rawBody?: Buffer;
      actor?: Actor;
    }
  }
}

export {};
