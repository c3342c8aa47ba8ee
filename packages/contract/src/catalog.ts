import { z } from 'zod';

/** The two catalogs a participant can be offered (spec section 7: GET user/catalog-url/{type}). */
export const CatalogType = z.enum(['merchandise', 'experiences']);
export type CatalogType = z.infer<typeof CatalogType>;

export const CatalogUrlParams = z.object({ type: z.string().max(40) });

/** A short-lived, signed punch-out link to the client's catalog of that type. */
export const CatalogUrlReply = z.object({ catalogUrl: z.string() });
export type CatalogUrlReply = z.infer<typeof CatalogUrlReply>;

/** Client data's catalog settings: the redeem dropdown's travel link (null: none configured). */
export const ClientCatalogs = z.object({ travelUrl: z.string().nullable() });
export type ClientCatalogs = z.infer<typeof ClientCatalogs>;

/**
 * What the punch-out token (a JWT signed by the portal, verified with the keys at JWKS_PATH)
 * says besides iss (the portal origin), aud (the catalog's partner id), iat and exp (at most
 * 5 minutes later).
 */
export const CatalogTokenClaims = z.object({
  sub: z.string(),
  /** The link's one-use id: the catalog redeems it (POST {PARTNER_API_BASE}/punchouts/{jti}) before showing anything. */
  jti: z.string(),
  name: z.string(),
  locale: z.string(),
  /** Points available now; null if the participant never earned any. */
  balance: z.number().int().nullable(),
  /** The client (program) id. */
  client: z.string(),
  offering: CatalogType,
});
export type CatalogTokenClaims = z.infer<typeof CatalogTokenClaims>;

/** POST {PARTNER_API_BASE}{partnerPaths.debits}: a catalog order debits the participant's points. */
export const PartnerDebitRequest = z
  .object({
    /** The catalog's own order id: the idempotency key (the same order twice debits once). */
    orderId: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9._:-]+$/),
    /** The punch-out token's sub. */
    participantId: z.string().min(1).max(100),
    points: z.number().int().positive().max(100_000_000),
    /** Shown in the participant's history. */
    description: z.string().trim().min(1).max(200),
    items: z
      .array(
        z.object({
          sku: z.string().min(1).max(100),
          name: z.string().min(1).max(200),
          quantity: z.number().int().positive().max(1000),
          points: z.number().int().nonnegative().max(100_000_000),
        }),
      )
      .max(50)
      .optional(),
  })
  .strict();
export type PartnerDebitRequest = z.infer<typeof PartnerDebitRequest>;

export const PartnerDebitReply = z.object({
  orderId: z.string(),
  debitId: z.string(),
  points: z.number().int(),
  accountBalance: z.number().int(),
});
export type PartnerDebitReply = z.infer<typeof PartnerDebitReply>;

/** POST {PARTNER_API_BASE}/punchouts/{jti}: the token's jti. */
export const PunchoutParams = z.object({
  jti: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9._:-]+$/),
});

/**
 * A redeemed punch-out link: from now on the catalog's own session carries the visit. Refused
 * when the link was used before (409), has expired or its portal session has ended (410).
 */
export const PunchoutReply = z.object({
  punchoutId: z.string(),
  /** The same as the token's sub. */
  participantId: z.string(),
  offering: CatalogType,
  redeemedAt: z.string(),
});
export type PunchoutReply = z.infer<typeof PunchoutReply>;

/** The public keys at JWKS_PATH (RFC 7517). */
export const JwksReply = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });
