import type { FastifySchemaCompiler } from 'fastify';
import type { FastifyValidationResult } from 'fastify/types/schema.js';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Request validation (docs/decisions/028). fastify-type-provider-zod parses every part with zod,
 * which for the headers of every API call meant a copy of the whole header object (a loose
 * object keeps every header) and, because Fastify then keeps that copy beside the raw headers, a
 * merged copy on each later `request.headers` read. Most header and path schemas are objects of
 * bounded strings: for those a compiled check of the declared fields says yes without zod, and
 * leaves the request's object as it is (zod's output would be equal). Anything the check cannot
 * decide on its own — a field missing or failing a bound, an undeclared path parameter, a schema
 * with anything but string length and pattern checks — goes to zod, so every refusal is zod's,
 * with the same 400 and message as before.
 */

type Check = (value: string) => boolean;
interface Field {
  name: string;
  optional: boolean;
  check: Check;
}

// The parts of zod's definitions read here (zod v4's `def`, stable across its releases).
interface Def {
  type: string;
  shape?: Record<string, { def: Def }>;
  catchall?: { def: Def };
  innerType?: { def: Def };
  checks?: { _zod: { def: { check: string; format?: string; minimum?: number; maximum?: number; pattern?: RegExp } } }[];
}

function onlyKeys(def: Def, allowed: string[]): boolean {
  return Object.keys(def).every((key) => allowed.includes(key));
}

/** A check of a plain string schema (length bounds, patterns), or undefined for anything else. */
function stringCheck(def: Def): Check | undefined {
  // Only a plain z.string() with checks: a string format (email, uuid…) or coercion is zod's.
  if (def.type !== 'string' || !onlyKeys(def, ['type', 'checks'])) return undefined;
  const checks: Check[] = [];
  for (const { _zod } of def.checks ?? []) {
    const { check, format, minimum, maximum, pattern } = _zod.def;
    if (check === 'min_length' && typeof minimum === 'number') checks.push((v) => v.length >= minimum);
    else if (check === 'max_length' && typeof maximum === 'number') checks.push((v) => v.length <= maximum);
    else if (check === 'string_format' && format === 'regex' && pattern instanceof RegExp)
      checks.push((v) => {
        // As zod tests it: from the start, whatever flags the pattern carries.
        pattern.lastIndex = 0;
        return pattern.test(v);
      });
    else return undefined; // transforms (trim, lower case), formats: zod's job
  }
  return (v) => {
    for (const check of checks) if (!check(v)) return false;
    return true;
  };
}

/**
 * For an object of strings: a function saying true when the value certainly passes, false when
 * zod must decide. `loose` objects keep undeclared keys (headers); plain ones would strip them, so
 * a value with an undeclared key is left to zod.
 */
export function fastObjectCheck(schema: unknown): ((data: unknown) => boolean) | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  const def = (schema as unknown as { def: Def }).def;
  // No refinements of the whole object (they would be `checks` here).
  if (def.type !== 'object' || !def.shape || !onlyKeys(def, ['type', 'shape', 'catchall'])) return undefined;
  const catchall = def.catchall?.def.type;
  if (catchall !== undefined && catchall !== 'unknown') return undefined;
  const loose = catchall === 'unknown';
  const fields: Field[] = [];
  for (const [name, field] of Object.entries(def.shape)) {
    const optional = field.def.type === 'optional';
    if (optional && !onlyKeys(field.def, ['type', 'innerType'])) return undefined;
    const inner = optional ? field.def.innerType?.def : field.def;
    const check = inner && stringCheck(inner);
    if (!check) return undefined;
    fields.push({ name, optional, check });
  }
  const names = new Set(fields.map((f) => f.name));
  return (data) => {
    if (data === null || typeof data !== 'object') return false;
    const record = data as Record<string, unknown>;
    for (const { name, optional, check } of fields) {
      const value = record[name];
      if (value === undefined) {
        if (!optional) return false;
      } else if (typeof value !== 'string' || !check(value)) return false;
    }
    if (!loose) for (const key in record) if (!names.has(key)) return false;
    return true;
  };
}

export const requestValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (routeSchema) => {
  const zodValidate = zodValidatorCompiler(routeSchema) as (data: unknown) => ReturnType<FastifyValidationResult>;
  const fast = routeSchema.httpPart === 'headers' || routeSchema.httpPart === 'params' ? fastObjectCheck(routeSchema.schema) : undefined;
  if (!fast) return zodValidate;
  return (data: unknown) => {
    if (!fast(data)) return zodValidate(data);
    // `true`: valid, and Fastify keeps the request's own object (zod's copy would be equal).
    return true;
  };
};
