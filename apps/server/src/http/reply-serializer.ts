import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type RouteSchema = Parameters<typeof zodSerializerCompiler>[0];
type JsonSchema = Record<string, unknown>;

/**
 * Replies serialised by fast-json-stringify from the JSON Schema of the route's zod response
 * schema (docs/decisions/026). fastify-type-provider-zod's serializer runs zod's full parse (a
 * deep copy of the reply, every check) before JSON.stringify on every reply; a compiled
 * serializer writes the declared properties straight out. What stays guaranteed: a reply
 * carries only the properties its schema declares (undeclared ones are dropped, as zod strips
 * them) and a missing required property is an error (500), not a partial reply. What is no
 * longer checked at run time: string bounds and formats of our own output (tests that parse a
 * reply with the contract's schema check them; tests run this same serializer, issue 18). A schema JSON Schema cannot express (transforms, dates) keeps zod's
 * serializer. The route schemas stay the contract's zod schemas (the API document reads them).
 */
export const replySerializerCompiler: FastifySerializerCompiler<z.ZodType> = (routeSchema) => {
  // Compiled on first use: ~100 routes compiled at start-up would cost the restart budget.
  let serialize: ((data: unknown) => string) | undefined;
  return (data: unknown) => {
    serialize ??= compile(routeSchema as RouteSchema);
    return serialize(data);
  };
};

function compile(routeSchema: RouteSchema): (data: unknown) => string {
  const zodSerialize = zodSerializerCompiler(routeSchema) as (data: unknown) => string;
  const schema = routeSchema.schema;
  if (!(schema instanceof z.ZodType)) return zodSerialize;
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'throw', reused: 'inline' }) as JsonSchema;
  } catch {
    return zodSerialize;
  }
  delete json.$schema;
  const fast = fastJson(lenient(json) as Parameters<typeof fastJson>[0]);
  return (data) => fast(data);
}

/**
 * fast-json-stringify writes only declared properties whatever `additionalProperties` says, but
 * picks a union's branch by validating the value: with `additionalProperties: false` a branch
 * would refuse an object carrying one extra (internal) field, where zod strips it. So the flag
 * goes, everywhere; the output still holds declared properties only.
 */
function lenient(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(lenient);
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = lenient(value);
  }
  return out;
}
