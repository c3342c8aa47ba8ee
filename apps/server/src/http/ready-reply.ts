import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** The security headers every API reply carries, as name, value, name, value… (security-headers.ts). */
    apiSecurityHeaderList: readonly string[];
    /** True once the server has begun to close: replies then carry `connection: close` (app.ts). */
    isDraining(): boolean;
  }
}

/**
 * Replies made of ready bytes (client data, bundles) written in one `writeHead` with a header list
 * built once per body (docs/decisions/028). Fastify's way — the headers gathered one by one into
 * the reply, the content type parsed again, the onSend hooks, the length computed — was most of
 * what these two routes cost beyond the bytes. The list holds exactly what that way sent: the
 * API's security headers, the route's own headers, the content type and length, and `cache-control:
 * no-store` where the API's onSend hook would have added it. onResponse hooks and request logging
 * still run (they follow the response's end). Only GET outside a shutdown takes this path; HEAD and
 * a draining server use Fastify's ordinary one.
 */
export interface ReadyReplies {
  /** Sends `body` with status 200 and the given headers (lower-case names); false if the caller must reply the ordinary way. */
  send(request: FastifyRequest, reply: FastifyReply, body: Buffer, headers: readonly string[]): boolean;
  /**
   * Sends a body made for this one request (GET user: the session's own id inside), with status 200,
   * the security headers and `no-store`; the header list is built from a prefix made once.
   */
  sendOwn(request: FastifyRequest, reply: FastifyReply, body: Buffer): boolean;
  /** A 304 with the given headers and no body, as above. */
  notModified(request: FastifyRequest, reply: FastifyReply, key: object, headers: readonly string[]): boolean;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export function readyReplies(app: FastifyInstance, options: { noStore: boolean }): ReadyReplies {
  const ok = new WeakMap<Buffer, string[]>();
  const unchanged = new WeakMap<object, string[]>();
  const usable = (request: FastifyRequest) => request.method === 'GET' && !app.isDraining();
  const cacheControl = (own: readonly string[]) => (options.noStore && !own.includes('cache-control') ? ['cache-control', 'no-store'] : []);
  const write = (reply: FastifyReply, status: number, list: string[], body?: Buffer) => {
    reply.hijack();
    reply.raw.writeHead(status, list);
    reply.raw.end(body);
  };
  let ownPrefix: string[] | undefined;
  return {
    sendOwn(request, reply, body) {
      if (!usable(request)) return false;
      ownPrefix ??= [...app.apiSecurityHeaderList, ...cacheControl([]), 'content-type', JSON_TYPE, 'content-length'];
      write(reply, 200, [...ownPrefix, String(body.length)], body);
      return true;
    },
    send(request, reply, body, headers) {
      if (!usable(request)) return false;
      let list = ok.get(body);
      if (!list) {
        list = [
          ...app.apiSecurityHeaderList,
          ...headers,
          ...cacheControl(headers),
          'content-type',
          JSON_TYPE,
          'content-length',
          String(body.length),
        ];
        ok.set(body, list);
      }
      write(reply, 200, list, body);
      return true;
    },
    notModified(request, reply, key, headers) {
      if (!usable(request)) return false;
      let list = unchanged.get(key);
      if (!list) {
        list = [...app.apiSecurityHeaderList, ...headers, ...cacheControl(headers)];
        unchanged.set(key, list);
      }
      write(reply, 304, list);
      return true;
    },
  };
}
