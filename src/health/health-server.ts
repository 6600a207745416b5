import { createServer, type Server } from 'node:http';
import type { Readiness, ReadinessReport } from './readiness.service';

/**
 * The job runner's only HTTP surface (JOBS_HEALTH_PORT): GET /livez and GET /readyz with the same meaning and bodies
 * as the API's, for Kubernetes probes. A bare node:http listener, so the job runner loads no Express, no guards and
 * no routes it does not serve.
 */
export async function startHealthServer(port: number, readiness: Readiness): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, notAllowed());
    if (path === '/livez') return send(200, { status: 'ok' });
    if (path !== '/readyz') return send(404, { error: { code: 'not_found', message: 'Not found.' } });
    readiness.check().then(
      (report) => send(report.ready ? 200 : 503, readinessBody(report)),
      () => send(503, readinessBody({ ready: false, draining: false, database: 'down', redis: 'down' })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

export function closeHealthServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

function readinessBody(report: ReadinessReport): unknown {
  if (report.ready) return { status: 'ready', database: report.database, redis: report.redis };
  return {
    error: {
      code: 'service_unavailable',
      message: report.draining
        ? 'This process is shutting down.'
        : 'A dependency of this process is unreachable.',
      retry_after: 5,
      draining: report.draining,
      database: report.database,
      redis: report.redis,
    },
  };
}

function notAllowed(): unknown {
  return { error: { code: 'method_not_allowed', message: 'Only GET is served here.' } };
}
