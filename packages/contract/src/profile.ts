import { z } from 'zod';

/** PUT user/password (spec section 7). Bounded like sign-in: argon2 of a huge string is a cheap attack. */
export const ChangePasswordRequest = z.object({
  oldPassword: z.string().min(1).max(200),
  newPassword: z.string().min(1).max(200),
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

/** The spec leaves the reply "not shown"; ours says how many other sessions were signed out. */
export const ChangePasswordReply = z.object({ otherSessionsEnded: z.number().int().min(0) });
export type ChangePasswordReply = z.infer<typeof ChangePasswordReply>;

// The rules check lives in its own zod-free file so the web app imports it without zod.
export * from './password-rules.ts';
