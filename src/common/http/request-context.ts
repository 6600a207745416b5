import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../logging/logger';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Orchestrator probes arrive every few seconds from every kubelet; their access lines are debug, not info. */
const PROBE_PATHS = new Set(['/livez', '/readyz']);

/**
 * Gives every request an id (echoing a sane incoming X-Request-ID, otherwise a new UUID), returns it in the
 * X-Request-ID header, and writes one structured access-log line when the response finishes.
 */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.header('x-request-id');
    req.id = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-ID', req.id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const path = req.originalUrl.split('?')[0];
      const level = PROBE_PATHS.has(path) && res.statusCode < 500 ? 'debug' : 'info';
      logger[level](
        {
          request_id: req.id,
          method: req.method,
          path,
          status: res.statusCode,
          duration_ms: Math.round(ms * 10) / 10,
          actor: req.actor ? `${req.actor.kind}:${req.actor.id}` : undefined,
        },
        'request',
      );
    });
    next();
  };
}
