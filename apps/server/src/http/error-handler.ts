import type { FastifyInstance, FastifyError, FastifyRequest } from 'fastify';
import { ErrorCode, type ApiError as WireError } from '@rewards/contract';
import { CONSOLE_API_BASE } from '@rewards/contract/console';
import { ApiError, errors } from './api-error.ts';

/**
 * The wire body. Params go to the console's API only (decision 087): it puts them in its own words;
 * the portal's, partner, admin and program APIs answer exactly as before, key and English message.
 */
function wire(error: ApiError, request?: FastifyRequest): WireError {
  const body = { errorCode: error.errorCode, responseMessage: error.responseMessage, message: error.message };
  return error.params && request?.url.startsWith(`${CONSOLE_API_BASE}/`) ? { ...body, params: error.params } : body;
}

/** The field a `required` refusal names (Ajv reports it beside an empty path). */
function missingProperty(params: Record<string, unknown> | undefined): string | undefined {
  const name = params?.missingProperty;
  return typeof name === 'string' ? name : undefined;
}

/**
 * One error handler: what the caller can fix gets its 4xx and translation key; anything else
 * is our fault, logged with the request id, and answered without detail.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.statusCode).send(wire(error, request));
    }
    // Ajv's (headers, path parameters) and zod's (bodies, query strings) refusals alike (http/schema-compilers.ts).
    if (error.validation) {
      const where = error.validationContext ?? 'request';
      const fields = error.validation.map((v) => v.instancePath.replace(/^\//, '') || missingProperty(v.params) || where);
      const named = [...new Set(fields)];
      // The fields as the request names them (a JSON path's segments joined with dots), for the app to say which is wrong.
      const params = { where, fields: named.map((field) => field.replaceAll('/', '.')).join(', ') };
      return reply.status(400).send(wire(errors.validation(`Invalid ${where}: ${named.join(', ')}`, params), request));
    }
    // Fastify's own client errors: malformed JSON, wrong content type, body too large.
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const detail = status === 415 ? 'Unsupported content type' : status === 413 ? 'Request too large' : 'The request is not valid';
      return reply.status(status).send({ errorCode: ErrorCode.validation, responseMessage: 'error.validation', message: detail });
    }
    request.log.error({ err: { type: error.name, message: error.message } }, 'request failed');
    return reply
      .status(500)
      .send({ errorCode: ErrorCode.internal, responseMessage: 'error.internal', message: 'Something went wrong on our side' });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(wire(errors.notFound()));
  });
}
