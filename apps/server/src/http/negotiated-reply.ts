import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches } from './accept-encoding.ts';
import type { NegotiatedBody, Representation } from './negotiated-body.ts';
import { JSON_TYPE, type ReadyReplies } from './ready-reply.ts';

/**
 * Sends the form of a ready JSON body that the request's Accept-Encoding prefers (docs/decisions/032),
 * or a 304 when If-None-Match names that form's ETag. GET outside a shutdown is written in one
 * `writeHead` (decision 028); HEAD and a closing server take Fastify's way with the same headers.
 */
export function replyNegotiated(
  ready: ReadyReplies,
  request: FastifyRequest,
  reply: FastifyReply,
  body: NegotiatedBody,
): FastifyReply | Promise<FastifyReply> {
  const chosen = body.select(request.headers['accept-encoding']);
  if (chosen instanceof Promise) return chosen.then((form) => send(ready, request, reply, form));
  return send(ready, request, reply, chosen);
}

/**
 * The same at once, without a promise, when the wanted form is already made and the reply can be
 * written from ready bytes (a GET outside a shutdown); false when the caller must take
 * replyNegotiated's way (decision 036, as decision 035 did for GET user).
 */
export function replyNegotiatedAtOnce(ready: ReadyReplies, request: FastifyRequest, reply: FastifyReply, body: NegotiatedBody): boolean {
  const form = body.select(request.headers['accept-encoding']);
  return !(form instanceof Promise) && sendReady(ready, request, reply, form, etagMatches(request.headers['if-none-match'], form.etag));
}

function sendReady(ready: ReadyReplies, request: FastifyRequest, reply: FastifyReply, form: Representation, unchanged: boolean): boolean {
  return unchanged
    ? ready.notModified(request, reply, form.body, form.unchangedHeaders)
    : ready.send(request, reply, form.body, form.headers);
}

function send(ready: ReadyReplies, request: FastifyRequest, reply: FastifyReply, form: Representation): FastifyReply {
  const unchanged = etagMatches(request.headers['if-none-match'], form.etag);
  if (sendReady(ready, request, reply, form, unchanged)) return reply;
  const headers = unchanged ? form.unchangedHeaders : form.headers;
  for (let i = 0; i < headers.length; i += 2) reply.header(headers[i]!, headers[i + 1]);
  // No body, so no content-type or content-length either (a "null" body's length of 4 made
  // strict HTTP/1.1 clients wait for bytes a 304 never carries).
  if (unchanged) return reply.status(304).send(undefined as never);
  return reply.type(JSON_TYPE).send(form.body);
}
