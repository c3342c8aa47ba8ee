import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedTarget } from './address.ts';

export interface SendResult {
  /** The receiver's HTTP status; undefined when none came (refused, timed out, reset). */
  status?: number;
  /** Why it did not succeed, short; undefined on a 2xx. */
  error?: string;
  durationMs: number;
}

/** How much of a reply is read (then dropped): the status is what counts. */
const MAX_REPLY_BYTES = 64 * 1024;

/**
 * POSTs the body to the URL, connecting to `target` only (the address checked before the send:
 * the connection's own lookup is pinned to it, so DNS is not asked again). TLS still checks the
 * certificate against the URL's host name. Redirects are not followed (a 3xx is a failure): a
 * redirect could point inward. Bounded by timeoutMs from the first byte sent to the last read.
 */
export function postJson(
  url: URL,
  target: ResolvedTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const pinned: LookupFunction = (_host, options, callback) => {
    // net asks with all: true when it may try several addresses (autoSelectFamily); there is one.
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const req = request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'rewards-webhooks/1',
        },
        agent: false,
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_REPLY_BYTES) res.destroy();
        });
        const finish = () => done(status >= 200 && status < 300 ? { status } : { status, error: `answered ${status}` });
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      done({ error: `no answer within ${Math.round(timeoutMs / 1000)} s` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => done({ error: `could not be reached (${error.code ?? 'error'})` }));
    req.end(body);
  });
}
