import { RequestMethod } from '@nestjs/common';
import { AUTH_RULE, type AuthRule } from '../auth/auth.decorators';
import { interceptRoutes, type ModuleEntry, type Route } from '../runtime/route-interceptors';
import { IdempotencyInterceptor } from './idempotency.interceptor';

const WRITES = new Set<RequestMethod>([
  RequestMethod.POST,
  RequestMethod.PUT,
  RequestMethod.PATCH,
  RequestMethod.DELETE,
  RequestMethod.ALL,
]);

/**
 * Puts IdempotencyInterceptor first on every POST, PUT, PATCH and DELETE route of the controllers of `modules` and
 * of everything they import that an agent may call. Called by AppModule.register, before Nest scans the modules.
 *
 * Why not a global interceptor (APP_INTERCEPTOR): the header only means something on an agent's writes, and a global
 * one would cost every request Nest's interceptor chain (runtime/route-interceptors.ts, with the figures). On writes
 * it runs as before: first, ahead of a route's own interceptors (multipart uploads), as global interceptors do.
 * Routes whose @Auth rule admits no agent (the worker's and the operator's) do not get it: the interceptor lets every
 * other caller through untouched, and the chain alone was several per cent of the CPU of a worker's accept and
 * submit.
 */
export function interceptWrites(modules: ModuleEntry[]): void {
  interceptRoutes(modules, IdempotencyInterceptor, agentMayWrite);
}

function agentMayWrite({ controller, handler, method }: Route): boolean {
  if (!WRITES.has(method)) return false;
  // The route's rule, else its controller's (as AuthGuard reads them); a public route has none.
  const rule = (Reflect.getMetadata(AUTH_RULE, handler) ?? Reflect.getMetadata(AUTH_RULE, controller)) as
    AuthRule | undefined;
  return !rule || rule.actors.includes('agent');
}
