import { z } from 'zod';

/**
 * API keys per client (issue 29 §1, docs/decisions/083): a client's own systems call the program
 * API with `Authorization: Bearer rk_live_<id>_<secret>`. Owners, program managers and auditors of
 * the client list its keys; owners and program managers make one (with a fresh second factor; the
 * key is in that reply only) and revoke one, with a reason. `rewards api-keys` does the same.
 */
const seg = encodeURIComponent;

/** What a key may do; a route names the one it needs. */
export const API_SCOPES = [
  'participants:read',
  'participants:write',
  'points:read',
  'points:write',
  /** Events (issue 32): posting them, which credits what the earning rules give (decision 097), and simulating one (decision 095). */
  'events:write',
  'codes:write',
  'webhooks:manage',
  'launch-as',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];
export const ApiScope = z.enum(API_SCOPES);

/** Every key starts so: recognisable in a log or by a secret scanner. */
export const API_KEY_PREFIX = 'rk_live_';
/** The bearer scheme's name in the API document. */
export const API_KEY_SECURITY_SCHEME = 'apiKey';

/** Sustained calls per second and the burst a new key gets: enough for a CRM's sync (hundreds a second). */
export const DEFAULT_RATE_PER_SECOND = 200;
export const DEFAULT_BURST = 400;
/** Bounds of a key's limits: a slow trickle (one call a minute and more) up to what one installation serves. */
export const MIN_RATE_PER_SECOND = 0.01;
export const MAX_RATE_PER_SECOND = 10_000;
export const MAX_BURST = 100_000;
export const MAX_API_KEY_NAME = 100;

export const consoleApiKeysPaths = {
  /** GET: the client's keys, newest first (ApiKeyList); POST: make one (CreateApiKeyRequest → CreatedApiKey, the key shown once). */
  keys: (clientId: string) => `/clients/${seg(clientId)}/api-keys`,
  /** POST: revoke a key (RevokeApiKeyRequest → ApiKeyView). */
  revoke: (clientId: string, keyId: string) => `/clients/${seg(clientId)}/api-keys/${seg(keyId)}/revoke`,
} as const;

const Reason = z.string().trim().min(3).max(500);

export const ApiKeyParams = z.object({ clientId: z.string().min(1).max(64), keyId: z.string().min(1).max(64) });
export type ApiKeyParams = z.infer<typeof ApiKeyParams>;

export const ApiKeyLimits = z.object({
  ratePerSecond: z.number().min(MIN_RATE_PER_SECOND).max(MAX_RATE_PER_SECOND),
  burst: z.number().int().min(1).max(MAX_BURST),
});

export const CreateApiKeyRequest = z.object({
  /** Unique in the client among keys not revoked, e.g. "CRM sync". */
  name: z.string().trim().min(1).max(MAX_API_KEY_NAME),
  scopes: z
    .array(ApiScope)
    .min(1)
    .max(API_SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'A scope is named twice'),
  ratePerSecond: ApiKeyLimits.shape.ratePerSecond.optional(),
  burst: ApiKeyLimits.shape.burst.optional(),
  reason: Reason,
});
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>;

export const RevokeApiKeyRequest = z.object({ reason: Reason });
export type RevokeApiKeyRequest = z.infer<typeof RevokeApiKeyRequest>;

/** A key's public face: never the key, never its hash. */
export const ApiKeyView = z.object({
  /** The key's public id (12 hex characters): what revoke names. */
  id: z.string(),
  client: z.string(),
  name: z.string(),
  /** The key's visible start, `rk_live_<id>`. */
  prefix: z.string(),
  scopes: z.array(ApiScope),
  ratePerSecond: z.number(),
  burst: z.number().int(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** Within about a minute. */
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
  revokeReason: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof ApiKeyView>;

export const ApiKeyList = z.object({ keys: z.array(ApiKeyView) });
export type ApiKeyList = z.infer<typeof ApiKeyList>;

/** The only reply that carries the key: it is not kept, so it cannot be shown again. */
export const CreatedApiKey = z.object({ key: z.string(), view: ApiKeyView });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;
