import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../common/logging/logger';
import { collectProcessMetrics, registry } from './metrics';

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * GET /metrics in the Prometheus text format on a port of its own (METRICS_PORT, JOBS_METRICS_PORT): a bare node:http
 * listener, apart from the public API's port, so the ingress never exposes it and a scrape never waits behind API
 * traffic in Express. Port 0: the operating system picks one (`port` says which).
 */
export async function startMetricsServer(port: number, host = '0.0.0.0'): Promise<MetricsServer> {
  collectProcessMetrics();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Only GET\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${String(err)}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The process's /metrics listener, or null when its port cannot be bound (another process on this machine has it: two
 * instances started side by side with the default port). The process serves on without metrics, which the error line
 * says, rather than refusing to start over them; in Kubernetes each pod has its own ports, and a pod that cannot be
 * scraped shows as a target down (`up == 0`).
 */
export async function serveMetrics(port: number, logger: Logger): Promise<MetricsServer | null> {
  try {
    const server = await startMetricsServer(port);
    logger.info({ metrics_port: server.port }, 'metrics served at /metrics');
    return server;
  } catch (err) {
    logger.error(
      { err, metrics_port: port },
      'metrics not served: the port could not be bound (METRICS_PORT)',
    );
    return null;
  }
}
