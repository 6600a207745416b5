import type { NextFunction, Request, Response } from 'express';
import { httpDuration, httpRequests } from './metrics';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Counts and times every HTTP request by route template (`/v1/tasks/:id`, never `/v1/tasks/5f0c...`), method and
 * status (product-decisions §20). The template is the Express route the request matched, known once it has been
 * routed; a request no route matched (a 404, a static file of the web apps, the docs) is `unmatched`, so a scan of
 * random URLs cannot grow the label set. Registered first (app.setup.ts), so the time covers every middleware.
 */
export function httpMetrics() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const labels = { method: methodLabel(req.method), route: routeTemplate(req), status: res.statusCode };
      httpRequests.inc(labels);
      httpDuration.observe(labels, seconds);
    });
    next();
  };
}

/** The route template the request matched, or `unmatched`. */
export function routeTemplate(req: Request): string {
  const path: unknown = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl}${path}` : 'unmatched';
}

function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'OTHER';
}
