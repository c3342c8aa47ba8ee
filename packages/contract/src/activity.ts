import { z } from 'zod';
import { LocaleCode } from './locale.ts';

/**
 * GET user/account/statement (spec sections 3 and 7). The username must be the signed-in
 * participant's own; the locale picks the language of the descriptions.
 */
export const StatementQuery = z.object({
  username: z.string().trim().min(1).max(100),
  locale: LocaleCode,
});
export type StatementQuery = z.infer<typeof StatementQuery>;

/** One ledger entry. `date` is ISO-8601 with an explicit offset; amounts are whole points. */
export const StatementEntry = z.object({
  date: z.string(),
  description: z.string(),
  amountOrAward: z.number().int(),
});
export type StatementEntry = z.infer<typeof StatementEntry>;

/** The whole history, oldest first; its amounts sum to the participant's balance. */
export const StatementReply = z.object({
  accountNumber: z.string(),
  accountHistoryList: z.array(StatementEntry),
});
export type StatementReply = z.infer<typeof StatementReply>;
