import { z } from 'zod';

/** The one error shape on the wire (ARCHITECTURE.md, Errors). responseMessage is a translation key. */
export const ApiError = z.object({
  errorCode: z.number().int(),
  responseMessage: z.string(),
  message: z.string(),
});
export type ApiError = z.infer<typeof ApiError>;

/**
 * Numeric error codes. 20013 comes from the spec (pre-activation login); the others are ours,
 * grouped by thousands: 10xxx request and session, 20xxx sign-in, 30xxx profile, 40xxx on-the-spot
 * codes, 50xxx catalogs and partner API, 60xxx content and contact, 70xxx activity.
 * Each capability adds its codes in its own group.
 */
export const ErrorCode = {
  validation: 10001,
  unknownClient: 10002,
  notFound: 10004,
  sessionRequired: 10401,
  forbidden: 10403,
  internal: 10500,
  invalidCredentials: 20001,
  preActivation: 20013,
  accountInactive: 20014,
  loginThrottled: 20029,
  unsupportedLocale: 30001,
  // profile (30xxx)
  // ots (40xxx)
  // catalogs and partner API (50xxx)
  // content and contact (60xxx)
  // activity (70xxx)
  statementNotOwn: 70001,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
