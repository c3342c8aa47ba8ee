import { z } from 'zod';
import { ExpiryPolicy } from './expiry.ts';

/**
 * The console's client settings beyond the agents' daily limit (./console-participants.ts): points
 * that expire (issue 19, docs/decisions/062). Every role of the client reads them; owners and
 * program managers change them, with a reason, audited.
 */
const seg = encodeURIComponent;

export const consoleClientPaths = {
  /** GET and PUT: the client's expiry policy, time zone and reminder days. */
  expirySettings: (clientId: string) => `/clients/${seg(clientId)}/settings/expiry`,
} as const;

/** The most days ahead of an expiry a reminder may go out. */
export const MAX_REMINDER_DAYS = 365;

export const ExpirySettings = z.object({
  policy: ExpiryPolicy,
  /** An IANA time zone (Europe/Paris): points expire at the end of a day there. */
  timeZone: z.string().min(1).max(64),
  /** Days before an expiry when the reminder goes out; more than lastChanceDays. */
  reminderDays: z.number().int().min(1).max(MAX_REMINDER_DAYS),
  /** Days before an expiry when the last-chance mail goes out (0: on the day itself). */
  lastChanceDays: z
    .number()
    .int()
    .min(0)
    .max(MAX_REMINDER_DAYS - 1),
});
export type ExpirySettings = z.infer<typeof ExpirySettings>;

const Reason = z.string().trim().min(3).max(500);

/** PUT: the whole set (the form shows it all), with why. */
export const ExpirySettingsRequest = ExpirySettings.extend({ reason: Reason });
export type ExpirySettingsRequest = z.infer<typeof ExpirySettingsRequest>;

/** PUT answers with the settings as they now are and the audit entry (null: unchanged, nothing written). */
export const ExpirySettingsReply = ExpirySettings.extend({ auditId: z.string().nullable() });
export type ExpirySettingsReply = z.infer<typeof ExpirySettingsReply>;
