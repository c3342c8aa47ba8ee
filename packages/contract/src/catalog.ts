import { z } from 'zod';

/** The two catalogs a participant can be offered (spec section 7: GET user/catalog-url/{type}). */
export const CatalogType = z.enum(['merchandise', 'experiences']);
export type CatalogType = z.infer<typeof CatalogType>;

export const CatalogUrlParams = z.object({ type: z.string().max(40) });

/** A short-lived, signed punch-out link to the client's catalog of that type. */
export const CatalogUrlReply = z.object({ catalogUrl: z.string() });
export type CatalogUrlReply = z.infer<typeof CatalogUrlReply>;
