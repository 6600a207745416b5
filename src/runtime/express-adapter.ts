import http from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';

/**
 * Runtime trick: the HTTP server builds requests and responses with Express's prototypes already in place.
 *
 * - Gain: listing at 10 k open tasks, with the interceptor on writes only (route-interceptors.ts), mark-compacts
 *   under load every 3 s instead of every 1.5 s and a steady p99 of 18.4 against 38.7 ms; building them with
 *   Node's constructors called on the object (subclassWithPrototype) took the steady p99 at 100 k open tasks from
 *   28-30 to 5.6 ms and creation's CPU per request from 2.0 to 1.5 ms (bench/results/before-after.md,
 *   docs/scaling.md "What one machine carries").
 * - Pinned by: express-adapter.spec.ts (requests and responses in flight share one hidden class, in a process of
 *   their own) and every e2e spec, which serve through it (test/support/app.ts).
 * - To remove: delete this file and its spec, and pass no adapter where `new LegworkExpressAdapter()` is passed
 *   (main.ts, test/support/app.ts, scripts/bench-available-tasks.ts): Nest then builds its own ExpressAdapter.
 *
 * Nest's Express adapter with one change: the HTTP server builds every request and response with Express's
 * prototypes already in place (`app.request`, `app.response`), instead of Node's plain IncomingMessage and
 * ServerResponse that Express then re-parents.
 *
 * Why: Express's `app.handle` calls `Object.setPrototypeOf` on every request and response. In V8 that made a
 * quarter to a third of each request's allocations outlive the next young-generation collection and get copied to
 * the old generation (measured with --trace-gc-nvp: ~30 % promoted with a bare Express app, 0 % with node:http or
 * with this server), so a full mark-compact ran every 1.5 s under steady load, and the requests arriving during
 * each one waited behind its marking: the listing's p99 at a steady rate. When an object already has the
 * prototype, `Object.setPrototypeOf` changes nothing, and the objects die young as they should
 * (docs/scaling.md, "What one machine carries").
 *
 * HTTPS and forceCloseConnections keep Nest's own server: this service uses neither (TLS ends at the ingress). So
 * would a Node whose IncomingMessage or ServerResponse were classes (see subclassWithPrototype).
 */
export class LegworkExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (
      options?.httpsOptions ||
      options?.forceCloseConnections ||
      isClass(http.IncomingMessage) ||
      isClass(http.ServerResponse)
    ) {
      super.initHttpServer(options);
      return;
    }
    const app = this.getInstance<Express>();
    this.httpServer = http.createServer(
      {
        IncomingMessage: subclassWithPrototype<typeof http.IncomingMessage>(
          http.IncomingMessage,
          app.request,
        ),
        ServerResponse: subclassWithPrototype<typeof http.ServerResponse>(http.ServerResponse, app.response),
      },
      app,
    );
  }
}

/**
 * A constructor that builds `base` objects (same arguments, same initialisation) whose prototype is `prototype`,
 * which must itself descend from `base.prototype` (Express's request and response objects do).
 *
 * `base` runs as a function on the object `new Built` made: Node's IncomingMessage and ServerResponse are ES5-style
 * constructors, which initialise `this` when called so (initHttpServer checks that they are). Building it with
 * `Reflect.construct(base, args, Built)` instead gave every request and response a hidden class of its own in V8
 * (Node 20), and every property set on them another one. Hidden classes live in the old generation: 140,000 of them
 * were garbage at each mark-compact under steady load (--trace-gc-object-stats), and a mark-compact ran every 1.5
 * to 3 s (bench/results/before-after.md).
 */
function subclassWithPrototype<T extends new (...args: never[]) => object>(base: T, prototype: object): T {
  const init = base as unknown as (this: object, ...args: unknown[]) => void;
  function Built(this: object, ...args: unknown[]): void {
    init.apply(this, args);
  }
  Built.prototype = prototype;
  return Built as unknown as T;
}

/** A constructor written as a class cannot be called on an object of ours (see subclassWithPrototype). */
function isClass(fn: unknown): boolean {
  return typeof fn === 'function' && /^class\b/.test(Function.prototype.toString.call(fn));
}
