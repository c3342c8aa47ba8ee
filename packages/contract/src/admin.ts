import { z } from 'zod';

/** The admin API (issue 9): a support desk's tools, with `Authorization: Bearer rk_<id>_<secret>`. */
export const ADMIN_API_BASE = '/api/admin/v1';
export const adminPaths = { launchTokens: '/launch-tokens' } as const;

/**
 * POST launch-tokens. `client` names the program: required for a key of every client, optional
 * (and then it must be the key's own) for a key of one client. The reason is what the audit log
 * keeps, e.g. a support ticket.
 */
export const LaunchTokenRequest = z.object({
  username: z.string().trim().min(1).max(100),
  reason: z.string().trim().min(3).max(500),
  client: z.string().trim().min(1).max(64).optional(),
});
export type LaunchTokenRequest = z.infer<typeof LaunchTokenRequest>;

/** The link to open (on the client's own origin), the bare token, and when it stops working. */
export const LaunchTokenReply = z.object({
  url: z.string(),
  token: z.string(),
  expiresAt: z.string(),
});
export type LaunchTokenReply = z.infer<typeof LaunchTokenReply>;

export const AdminAuthHeaders = z.looseObject({ authorization: z.string().max(512).optional() });
