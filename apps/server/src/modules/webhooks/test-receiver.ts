import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver took: its headers, body, and what it answered. */
export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

/**
 * A client's receiver for the tests (decision 084): a real HTTP server on 127.0.0.1 that records
 * each request and answers what `answer` says (default 200). `verify` checks a request with the
 * `standardwebhooks` library, as a client's developer would.
 */
export interface TestReceiver {
  url: string;
  received: Received[];
  /** What to answer the next requests, in order (then 200); e.g. [500] answers 500 once. */
  answerNext(...statuses: number[]): void;
  /** Holds every request unanswered until released (a worker killed mid-request). */
  hold(): void;
  /** Answers the held requests and stops holding. */
  release(): void;
  /** Resolves when `count` requests have been received in all. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<TestReceiver> {
  const received: Received[] = [];
  const queue: number[] = [];
  let holding = false;
  const held = new Set<() => void>();
  const waiters = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answered = queue.shift() ?? 200;
      received.push({
        id: String(req.headers['webhook-id'] ?? ''),
        timestamp: String(req.headers['webhook-timestamp'] ?? ''),
        signature: String(req.headers['webhook-signature'] ?? ''),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        answered,
      });
      for (const wake of waiters) wake();
      if (holding) {
        held.add(() => res.writeHead(answered).end());
        return;
      }
      res.writeHead(req.url === path ? answered : 404).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answerNext: (...statuses) => queue.push(...statuses),
    hold: () => (holding = true),
    release: () => {
      holding = false;
      for (const answer of held) answer();
      held.clear();
    },
    waitFor: (count, timeoutMs = 30_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the receiver got ${received.length} of ${count} requests within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: async () => {
      for (const release of held) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The payload if the request verifies with the secret (the standardwebhooks library), else throws. */
export function verified(secret: string, request: Received): { type: string; timestamp: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': request.id,
    'webhook-timestamp': request.timestamp,
    'webhook-signature': request.signature,
  }) as { type: string; timestamp: string; data: Record<string, unknown> };
}
