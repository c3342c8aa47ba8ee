import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler, validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * The routes declare the contract's zod schemas (types come from them, and the API document);
 * Fastify's own compilers do the work (docs/decisions/056). Each zod schema is turned into JSON
 * Schema once (`z.toJSONSchema`), then:
 * - headers and path parameters are checked by Fastify's default Ajv validator: the contract's are
 *   bounded strings, which JSON Schema says exactly;
 * - bodies and query strings stay zod's (fastify-type-provider-zod): the contract trims, lower-cases,
 *   coerces, refines and defaults there, which JSON Schema cannot do (a trimmed `min(1)` is not a
 *   `minLength`), and parsing twice would cost more than it saves;
 * - replies are written by Fastify's default fast-json-stringify serializer, which writes declared
 *   properties only (a reply cannot carry a field its schema lacks). A schema JSON Schema cannot
 *   express (a transform) keeps zod's serializer.
 * Every refusal leaves as the same 400 (`Invalid headers: x-session-id`, http/error-handler.ts).
 */

type JsonSchema = Record<string, unknown>;

// Fastify's defaults (coerceTypes, removeAdditional, useDefaults, no allErrors), as Fastify builds them.
const ajv = AjvCompiler()({}, { customOptions: {} });
const fastJson = SerializerSelector()({}, {});

/** One conversion per schema object and direction: many routes share ClientHeaders or SessionHeaders. */
const converted = { input: new WeakMap<z.ZodType, JsonSchema>(), output: new WeakMap<z.ZodType, JsonSchema>() };

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  let json = converted[io].get(schema);
  if (!json) {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'throw', reused: 'inline' });
    json = io === 'output' ? (lenient(rest) as JsonSchema) : rest;
    converted[io].set(schema, json);
  }
  return json;
}

export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = (routeSchema) => {
  const { schema, httpPart } = routeSchema;
  if ((httpPart === 'headers' || httpPart === 'params') && schema instanceof z.ZodType)
    return ajv({ ...routeSchema, schema: jsonSchemaOf(schema, 'input') });
  return zodValidatorCompiler(routeSchema);
};

export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = (routeSchema) => {
  // Compiled on first use: ~100 routes compiled at start-up would cost the restart budget.
  let serialize: ((data: unknown) => string) | undefined;
  return (data: unknown) => {
    serialize ??= compileSerializer(routeSchema);
    return serialize(data);
  };
};

function compileSerializer(routeSchema: Parameters<FastifySerializerCompiler<z.ZodType>>[0]): (data: unknown) => string {
  const { schema } = routeSchema;
  if (!(schema instanceof z.ZodType)) return fastJson(routeSchema as Parameters<typeof fastJson>[0]);
  try {
    return fastJson({ ...routeSchema, schema: jsonSchemaOf(schema, 'output') } as Parameters<typeof fastJson>[0]);
  } catch {
    // Not expressible in JSON Schema: zod parses and JSON.stringify writes.
    return zodSerializerCompiler(routeSchema as Parameters<typeof zodSerializerCompiler>[0]) as (data: unknown) => string;
  }
}

/**
 * fast-json-stringify writes only declared properties whatever `additionalProperties` says, but
 * picks a union's branch by validating the value: with `additionalProperties: false` a branch
 * would refuse an object carrying one extra (internal) field, where zod strips it. So the flag
 * goes; the output still holds declared properties only.
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
