import { RequestMethod, type DynamicModule, type ForwardReference, type Type } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA, MODULE_METADATA } from '@nestjs/common/constants';
import { AUTH_RULE, type AuthRule } from '../auth/auth.decorators';
import { IdempotencyInterceptor } from './idempotency.interceptor';

type ModuleEntry = Type | DynamicModule | ForwardReference | Promise<DynamicModule> | undefined;

const WRITES = new Set<RequestMethod>([
  RequestMethod.POST,
  RequestMethod.PUT,
  RequestMethod.PATCH,
  RequestMethod.DELETE,
  RequestMethod.ALL,
]);

/**
 * Puts IdempotencyInterceptor first on every POST, PUT, PATCH and DELETE route of the controllers of `modules` and
 * of everything they import. Called by AppModule.register, before Nest scans the modules (Nest registers a route's
 * interceptors when it scans its controller).
 *
 * Why not a global interceptor (APP_INTERCEPTOR): the header only means something on writes, but a global one runs
 * on every request, reads included, and Nest's interceptor chain costs each request an rxjs pipeline and two
 * AsyncResource.bind closures. On the worker's listing that was 14 % of the API's CPU per request, and the bound
 * closures kept the request's objects alive into the old generation (a mark-compact every 1.5 s under steady load,
 * with the requests behind it waiting: the listing's p99). On writes it runs as before: first, ahead of a route's
 * own interceptors (multipart uploads), as global interceptors do. Routes whose @Auth rule admits no agent (the
 * worker's and the operator's) do not get it: the interceptor lets every other caller through untouched, and the
 * chain alone was several per cent of the CPU of a worker's accept and submit.
 */
export function interceptWrites(modules: ModuleEntry[]): void {
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
    for (const controller of controllers) interceptControllerWrites(controller);
    const imports: ModuleEntry[] = [
      ...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, moduleClass) as ModuleEntry[] | undefined) ?? []),
      ...(dynamic?.imports ?? []),
    ];
    for (const imported of imports) visit(imported);
  };
  for (const entry of modules) visit(entry);
}

function interceptControllerWrites(controller: Type): void {
  const proto = controller.prototype as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(proto)) {
    const handler = Object.getOwnPropertyDescriptor(proto, name)?.value as object | undefined;
    if (typeof handler !== 'function') continue;
    const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
    if (method === undefined || !WRITES.has(method)) continue;
    // The route's rule, else its controller's (as AuthGuard reads them); a public route has none.
    const rule = (Reflect.getMetadata(AUTH_RULE, handler) ?? Reflect.getMetadata(AUTH_RULE, controller)) as
      AuthRule | undefined;
    if (rule && !rule.actors.includes('agent')) continue;
    const own = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? [];
    // AppModule.register runs once per app; the test suite builds many apps in one process.
    if (own.includes(IdempotencyInterceptor)) continue;
    Reflect.defineMetadata(INTERCEPTORS_METADATA, [IdempotencyInterceptor, ...own], handler);
  }
}
