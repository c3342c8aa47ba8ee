import { z } from 'zod';
import { ACTIVATION_FIELDS } from './activation-fields.ts';

/**
 * Account lifecycle (issue 7): activation, forgot user id, forgot and reset password.
 * Spec section 7 names the calls; the replies it leaves "not shown" are { result }.
 */

/** The facts that prove who an enrolled participant is, by activation field (clientBranding.activationFields). */
export const ActivationCharacteristics = z
  .record(z.string().min(1).max(40), z.string().trim().min(1).max(200))
  .describe(
    `Exactly the client's clientBranding.activationFields, each with its value. The fields a client can ask for: ${ACTIVATION_FIELDS.join(', ')}; ` +
      'dateOfBirth as YYYY-MM-DD. Names and e-mail addresses are compared ignoring case (names also accents), the rest exactly.',
  );

export const ActivateRequest = z.object({
  characteristics: ActivationCharacteristics,
  password: z.string().min(1).max(200),
  /**
   * A username the participant picks (optional: without it they keep the one the program
   * enrolled them with). Signs in like any username (trimmed, case ignored); 3 to 100
   * characters without spaces; it must be free in the program (409 otherwise).
   */
  username: z
    .string()
    .trim()
    .min(3)
    .max(100)
    .regex(/^[^\s\p{C}]+$/u)
    .optional(),
  /** The privacy notice version the participant accepted, when one is active. */
  acceptedPrivacyNoticeVersion: z.number().int().min(0).optional(),
});
export type ActivateRequest = z.infer<typeof ActivateRequest>;

export const EmailAddress = z.string().trim().min(3).max(254).email();

export const ForgotUsernameRequest = z.object({ emailAddress: EmailAddress });
export type ForgotUsernameRequest = z.infer<typeof ForgotUsernameRequest>;

export const ForgotPasswordRequest = z.object({ emailAddress: EmailAddress, userName: z.string().trim().min(1).max(100) });
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequest>;

/** A reset guid: at least 128 random bits, base64url (43 characters for 256 bits). */
export const PasswordGuid = z.string().regex(/^[A-Za-z0-9_-]{22,128}$/);

export const SavePasswordRequest = z.object({ password: z.string().min(1).max(200), passwordGuid: PasswordGuid });
export type SavePasswordRequest = z.infer<typeof SavePasswordRequest>;

/** The same reply whatever the outcome, so nobody learns who is enrolled. */
export const AcceptedReply = z.object({ result: z.literal('accepted') });
export type AcceptedReply = z.infer<typeof AcceptedReply>;

export const SavePasswordReply = z.object({ result: z.literal('saved') });
export type SavePasswordReply = z.infer<typeof SavePasswordReply>;
