import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { METRICS_PATH, type Metrics } from './metrics.ts';

export interface MetricsListener {
  /** http://host:port of the listener. */
  readonly address: string;
  close(): Promise<void>;
}

/**
 * /metrics on a listener of its own (METRICS_HOST:METRICS_PORT, decision 079): a plain Node
 * server with one path, so that nothing of the portal (its hooks, its hosts, its web app) answers
 * there and the portal's port never serves it. Anything else is 404.
 */
export async function listenMetrics(metrics: Metrics, where: { port: number; host: string }): Promise<MetricsListener> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?', 1)[0];
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    metrics.scrape().then(
      (body) => {
        response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be gathered\n'),
    );
  });
  // Prometheus reuses its connection from one scrape to the next (15 s apart by default); close() ends it.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    address: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
