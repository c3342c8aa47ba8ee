import { z } from 'zod';

/** A refusal's particulars (a name, a number, a date), for the text its key stands for (decision 087). */
export const ErrorParams = z.record(z.string(), z.union([z.string(), z.number()]));
export type ErrorParams = z.infer<typeof ErrorParams>;

/**
 * The one error shape on the wire (ARCHITECTURE.md, Errors). responseMessage is a translation key,
 * message English for logs and commands; params, where a refusal has particulars, fill the key's text.
 */
export const ApiError = z.object({
  errorCode: z.number().int(),
  responseMessage: z.string(),
  message: z.string(),
  params: ErrorParams.optional().describe(
    "The console's API only: the refusal's particulars for the text of responseMessage (for example username, balance, debit; reason picks a variant), where a refusal has some.",
  ),
});
export type ApiError = z.infer<typeof ApiError>;

/**
 * Numeric error codes. 20013 comes from the spec (pre-activation login); the others are ours,
 * grouped by thousands: 10xxx request and session, 20xxx sign-in, 30xxx profile, 40xxx on-the-spot
 * codes, 50xxx catalogs and partner API, 60xxx content and contact, 70xxx activity, 80xxx account lifecycle, 90xxx single sign-on, 91xxx launch-as, 92xxx the staff console.
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
  wrongCurrentPassword: 30002,
  passwordRulesNotMet: 30003,
  samePassword: 30004,
  // ots (40xxx)
  otsUnknownCode: 40001,
  otsCodeUsed: 40002,
  otsCodeExpired: 40003,
  otsCodeVoid: 40004,
  otsNotEnabled: 40005,
  otsThrottled: 40029,
  // catalogs and partner API (50xxx)
  catalogUnavailable: 50001,
  partnerUnauthorized: 50002,
  insufficientBalance: 50003,
  orderConflict: 50004,
  participantNotFound: 50005,
  punchoutNotFound: 50006,
  punchoutUsed: 50007,
  punchoutExpired: 50008,
  punchoutSessionEnded: 50009,
  // content and contact (60xxx)
  contentNotFound: 60004,
  rulesNotYourProgram: 60003,
  contactThrottled: 60029,
  // activity (70xxx)
  statementNotOwn: 70001,
  // account lifecycle (80xxx)
  activationFailed: 80001,
  alreadyActive: 80002,
  privacyNoticeNotAccepted: 80003,
  usernameTaken: 80004,
  resetLinkInvalid: 80005,
  resetLinkExpired: 80006,
  resetLinkUsed: 80007,
  resetLinkReplaced: 80008,
  accountThrottled: 80029,
  // single sign-on (90xxx)
  passwordSignInOff: 90001,
  // launch-as and admin API (91xxx)
  launchTokenInvalid: 91001,
  launchTokenExpired: 91002,
  launchTokenUsed: 91003,
  adminKeyInvalid: 91401,
  adminKeyForbidden: 91403,
  adminParticipantNotFound: 91404,
  adminKeyThrottled: 91429,
  // the staff console (92xxx)
  staffInvalidCredentials: 92001,
  staffSecondFactorFailed: 92002,
  staffEnrolmentInvalid: 92003,
  staffEnrolmentExpired: 92004,
  staffEnrolmentUsed: 92005,
  staffPasswordRulesNotMet: 92006,
  staffEnrolmentStep: 92007,
  staffNoPasskey: 92008,
  /** Staff management and adjustments above the agents' limit: pass a second factor again (step-up). */
  staffFreshSecondFactorRequired: 92009,
  /** Reserved for the console's participant actions (92010-92049) and staff management (92050-92089). */
  /** A debit the balance does not cover: nothing was posted. */
  consoleInsufficientBalance: 92010,
  /** A support agent's daily adjustment limit in the client would be passed. */
  consoleAgentLimitReached: 92011,
  /** The same requestId with a different adjustment. */
  consoleRequestIdReused: 92012,
  /** The action would change nothing (same status, same details). */
  consoleNothingToChange: 92013,
  /** The mail asked for does not apply to the participant (activation for an active one, reset for a pending one). */
  consoleMailNotApplicable: 92014,
  /** Too many mails of this kind to this participant for now (the account module's limits). */
  consoleMailThrottled: 92015,
  /** An activated account cannot be sent back to pending (docs/decisions/076): set it inactive, or send a password reset. */
  consoleNoWayBackToPending: 92016,
  /** Staff changed the participant's e-mail address less than 24 hours ago: no reset or activation link goes there yet (decision 076). */
  consoleEmailRecentlyChanged: 92017,
  /** Staff management (docs/decisions/049): the e-mail address is on staff already. */
  staffAlreadyExists: 92050,
  /** An owner may not disable or reset themselves, nor take away their own owner flag. */
  staffOwnAccount: 92051,
  /** The last active owner may not be disabled or lose the owner flag. */
  staffLastOwner: 92052,
  /** Your account (docs/decisions/070): the account signs in only through the installation's OpenID provider; it has no password here. */
  staffNoPassword: 92053,
  /** Your account: removing this passkey would leave no authenticator app and no other passkey. */
  staffLastSecondFactor: 92054,
  /** Your account: the new passkey could not be verified, or is registered already. */
  staffPasskeyRefused: 92055,
  /** Your account: an authenticator app is set up already (an owner's reset starts over). */
  staffTotpAlreadySet: 92056,
  /** Imports (issue 20 §2, docs/decisions/064): another job of the client is running. */
  importJobRunning: 92100,
  /** The import is not in a state that allows this (still staging or previewing, confirmed already, done). */
  importNotConfirmable: 92101,
  /** The upload is larger than the limits, or not a CSV of the kind named. */
  importRefused: 92102,
  /** Only an import being previewed or previewed can be discarded: this one runs, ended, or was discarded already. */
  importNotDiscardable: 92103,
  /** Code batches (docs/decisions/063; 92110-92119): the client has a batch of this name already. */
  codesBatchNameTaken: 92110,
  /** Catalog partners (decision 065): revoked, or named by a catalog and so not revocable yet. */
  catalogPartnerConflict: 92120,
  /** Issue 20 §6 (decision 068): the installation turned password sign-in off (its OpenID provider only). */
  staffPasswordSignInOff: 92090,
  staffDisabled: 92403,
  staffCrossSite: 92404,
  staffThrottled: 92429,
  /** API keys and their guard (issue 29, docs/decisions/083; 93000-93099). One answer for a missing, malformed, unknown, wrong or revoked key. */
  apiKeyInvalid: 93001,
  /** The key lacks the scope the route needs. */
  apiKeyScopeMissing: 93002,
  /** The key's rate is spent: try again after Retry-After seconds. */
  apiKeyRateLimited: 93003,
  /** Too many bad keys from this address. */
  apiKeyThrottled: 93004,
  /** The client has a key of this name that is not revoked. */
  apiKeyNameTaken: 93010,
  /** The program API (issue 29 §2, docs/decisions/085; 95000-95099). A debit or a reversal the balance does not cover: nothing was posted. */
  programInsufficientBalance: 95001,
  /** This externalId was posted already with another body (participant, points, description, occurredAt or note). */
  programExternalIdReused: 95002,
  /** The posting was reversed already: a posting is reversed once. */
  programAlreadyReversed: 95003,
  /** A reversal of more points than the posting had. */
  programReversalTooLarge: 95004,
  /** Webhooks (issue 29 §3, docs/decisions/084; 94000-94099): the URL is not one deliveries may go to (https, no inward address). */
  webhookUrlRefused: 94001,
  /** The delivery is being sent right now: look again in a moment. */
  webhookDeliveryInFlight: 94002,
  /** The endpoint is disabled: enable it before sending a delivery again. */
  webhookEndpointDisabled: 94003,
  /** The client has as many endpoints as one client may have (MAX_WEBHOOK_ENDPOINTS): delete one first. */
  webhookEndpointLimit: 94004,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
