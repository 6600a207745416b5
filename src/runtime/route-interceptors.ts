import type { DynamicModule, ForwardReference, RequestMethod, Type } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA, MODULE_METADATA } from '@nestjs/common/constants';

/** An entry of a Nest module's `imports`. */
export type ModuleEntry = Type | DynamicModule | ForwardReference | Promise<DynamicModule> | undefined;

/** A route handler of a controller, as Nest's decorators describe it. */
export interface Route {
  controller: Type;
  handler: object;
  method: RequestMethod;
}

/**
 * Runtime trick: an interceptor is put on chosen routes by rewriting Nest's interceptor metadata of each route
 * handler before Nest scans the modules, instead of being registered globally (APP_INTERCEPTOR). The one user is
 * the Idempotency-Key interceptor on the routes an agent may write through (interceptWrites, idempotent-writes.ts).
 *
 * - Gain: a global interceptor costs every request, reads included, Nest's interceptor chain (an rxjs pipeline, two
 *   AsyncResource.bind closures that keep the request alive): 14 % of the API's CPU per request on the worker's
 *   listing, and a mark-compact every 1.5 s under steady load. On writes only, with the Express adapter
 *   (express-adapter.ts), mark-compacts came every 3 s and the listing's steady p99 was 18.4 against 38.7 ms;
 *   leaving out the routes no agent may call took the accept race's API CPU per request from 1.39 to 1.11-1.18 ms
 *   (bench/results/before-after.md, "Request objects die young" and "No interceptor chain on the writes no agent
 *   may call").
 * - Pinned by: src/idempotency/idempotent-writes.spec.ts (which routes get it, first in their chain, once) and
 *   test/system/exactly-once.e2e-spec.ts (every money route answers a repeated key from its stored answer).
 * - To remove: register the interceptor as a global one (`{ provide: APP_INTERCEPTOR, useClass:
 *   IdempotencyInterceptor }` in AppModule's providers) and drop the interceptWrites call in AppModule.register and
 *   this file: the interceptor lets reads and callers other than agents through untouched, so behaviour is the same.
 *
 * Puts `interceptor` first on every route of the controllers of `modules` (and of everything they import) that
 * `applies` chooses, ahead of the route's own interceptors, where a global one would run. Must run before Nest scans
 * the modules: Nest registers a route's interceptors when it scans its controller. Idempotent: the test suite builds
 * many applications in one process.
 */
export function interceptRoutes(
  modules: ModuleEntry[],
  interceptor: Type,
  applies: (route: Route) => boolean,
): void {
  const seen = new Set<unknown>();
  const visit = (entry: ModuleEntry): void => {
    if (!entry || entry instanceof Promise || seen.has(entry)) return;
    seen.add(entry);
    if ('forwardRef' in entry) return visit((entry.forwardRef as () => ModuleEntry)());
    const moduleClass = 'module' in entry ? entry.module : entry;
    const dynamic = 'module' in entry ? entry : undefined;
    const controllers: Type[] = [
      ...((Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, moduleClass) as Type[] | undefined) ?? []),
      ...(dynamic?.controllers ?? []),
    ];
    for (const controller of controllers) interceptController(controller, interceptor, applies);
    const imports: ModuleEntry[] = [
      ...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, moduleClass) as ModuleEntry[] | undefined) ?? []),
      ...(dynamic?.imports ?? []),
    ];
    for (const imported of imports) visit(imported);
  };
  for (const entry of modules) visit(entry);
}

function interceptController(controller: Type, interceptor: Type, applies: (route: Route) => boolean): void {
  const proto = controller.prototype as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(proto)) {
    const handler = Object.getOwnPropertyDescriptor(proto, name)?.value as object | undefined;
    if (typeof handler !== 'function') continue;
    const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
    if (method === undefined || !applies({ controller, handler, method })) continue;
    const own = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? [];
    if (own.includes(interceptor)) continue;
    Reflect.defineMetadata(INTERCEPTORS_METADATA, [interceptor, ...own], handler);
  }
}
