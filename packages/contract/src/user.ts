import { z } from 'zod';
import { Locale, LocaleCode } from './locale.ts';

/** User data as login, GET user and POST user/locale return it (spec section 3). */
export const UserData = z.object({
  authenticated: z.boolean(),
  sessionId: z.string(),
  userId: z.string(),
  userName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  accountNumber: z.string(),
  locale: Locale,
  accountBalance: z.number().int().nullable(),
  accountBalanceUnavailable: z.boolean(),
  rewardsOffering: z.object({ merchandise: z.boolean(), experiences: z.boolean() }),
  rewardsOfferingUnavailable: z.boolean(),
  isInActiveHasPoints: z.boolean(),
  participantFeatures: z.object({ ots: z.boolean() }),
  adminAsUser: z.boolean(),
  privacyNotice: z.object({ hasAcknowledged: z.boolean(), version: z.number().int() }),
  participantRules: z.array(z.string()),
  ssoAuthenticated: z.boolean(),
  /** Points earned and not yet spendable (issue 32 §3): their total and when they become available, soonest first (at most 5 days). */
  pendingPoints: z.object({
    points: z.number().int(),
    releases: z.array(
      z.object({
        points: z.number().int(),
        /** YYYY-MM-DD, the client's calendar day. */
        availableOn: z.string(),
      }),
    ),
  }),
});
export type UserData = z.infer<typeof UserData>;

export const LoginRequest = z.object({
  username: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(200),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const SetLocaleRequest = z.object({ locale: z.object({ code: LocaleCode }) });
export type SetLocaleRequest = z.infer<typeof SetLocaleRequest>;

export const ProgramNamesReply = z.object({ participantRules: z.array(z.string()) });
export type ProgramNamesReply = z.infer<typeof ProgramNamesReply>;

export const AcknowledgeReply = z.object({ privacyNotice: z.object({ hasAcknowledged: z.boolean(), version: z.number().int() }) });
export type AcknowledgeReply = z.infer<typeof AcknowledgeReply>;
