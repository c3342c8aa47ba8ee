import { z } from 'zod';

/** Longest code accepted, separators included; longer input is refused as bad input (400). */
export const OTS_CODE_MAX_LENGTH = 64;

/** POST ots/redeem (spec section 7). The server matches the code ignoring case, spaces and dashes. */
export const OtsRedeemRequest = z.object({
  code: z.string().trim().min(1).max(OTS_CODE_MAX_LENGTH),
  userName: z.string().trim().min(1).max(100),
});
export type OtsRedeemRequest = z.infer<typeof OtsRedeemRequest>;

/** `message` is a translation key taking `{value}` and `{mediaLabel}`; the balance is the new one. */
export const OtsRedeemReply = z.object({
  message: z.string(),
  value: z.number().int().positive(),
  accountBalance: z.number().int(),
});
export type OtsRedeemReply = z.infer<typeof OtsRedeemReply>;
