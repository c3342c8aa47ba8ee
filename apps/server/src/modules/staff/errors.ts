import { ErrorCode } from '@rewards/contract';
import { ApiError } from '../../http/api-error.ts';

/** The console's refusals (docs/decisions/046); responseMessage keys are the console's to translate. */
export const staffErrors = {
  invalidCredentials: () =>
    new ApiError(401, ErrorCode.staffInvalidCredentials, 'console.error.invalidCredentials', 'Wrong e-mail address or password'),
  secondFactorFailed: () =>
    new ApiError(401, ErrorCode.staffSecondFactorFailed, 'console.error.secondFactorFailed', 'That code is not valid'),
  passwordSignInOff: () =>
    new ApiError(
      403,
      ErrorCode.staffPasswordSignInOff,
      'console.error.passwordSignInOff',
      "Sign in through your organisation's provider: password sign-in is off here",
    ),
  disabled: () => new ApiError(403, ErrorCode.staffDisabled, 'console.error.disabled', 'This staff account is disabled'),
  throttled: () => new ApiError(429, ErrorCode.staffThrottled, 'console.error.throttled', 'Too many attempts: wait a quarter of an hour'),
  crossSite: () =>
    new ApiError(403, ErrorCode.staffCrossSite, 'console.error.crossSite', 'Changes are only accepted from the console itself'),
  enrolmentInvalid: () =>
    new ApiError(400, ErrorCode.staffEnrolmentInvalid, 'console.error.enrolmentInvalid', 'This enrolment link is not valid'),
  enrolmentExpired: () =>
    new ApiError(
      400,
      ErrorCode.staffEnrolmentExpired,
      'console.error.enrolmentExpired',
      'This enrolment link has expired: ask for a new one',
    ),
  enrolmentUsed: () => new ApiError(409, ErrorCode.staffEnrolmentUsed, 'console.error.enrolmentUsed', 'This enrolment link has been used'),
  enrolmentStep: () => new ApiError(409, ErrorCode.staffEnrolmentStep, 'console.error.enrolmentStep', 'Set a password first'),
  noPasskey: () => new ApiError(409, ErrorCode.staffNoPasskey, 'console.error.noPasskey', 'No passkey is registered for this account'),
  freshSecondFactorRequired: () =>
    new ApiError(
      403,
      ErrorCode.staffFreshSecondFactorRequired,
      'console.error.freshSecondFactor',
      'Confirm it is you: pass your second factor again',
    ),
  notFound: () => new ApiError(404, ErrorCode.notFound, 'error.notFound', 'No such staff member'),
  alreadyStaff: () =>
    new ApiError(409, ErrorCode.staffAlreadyExists, 'console.error.alreadyStaff', 'This e-mail address is on staff already'),
  ownAccount: () =>
    new ApiError(409, ErrorCode.staffOwnAccount, 'console.error.ownAccount', 'You cannot do this to your own account: ask another owner'),
  lastOwner: () =>
    new ApiError(
      409,
      ErrorCode.staffLastOwner,
      'console.error.lastOwner',
      'This is the last active owner: make someone else an owner first',
    ),
  passwordRulesNotMet: () =>
    new ApiError(400, ErrorCode.staffPasswordRulesNotMet, 'console.error.passwordRules', 'The password does not meet the rules'),
  // Your account (docs/decisions/070). 400, not 401, for a wrong current password: a 401 is the console's ended-session path.
  wrongCurrentPassword: () =>
    new ApiError(400, ErrorCode.wrongCurrentPassword, 'console.error.wrongCurrentPassword', 'The current password is not right'),
  samePassword: () =>
    new ApiError(400, ErrorCode.samePassword, 'console.error.samePassword', 'The new password must differ from the current one'),
  noPassword: () =>
    new ApiError(
      409,
      ErrorCode.staffNoPassword,
      'console.error.noPassword',
      "This account signs in through your organisation's provider: it has no password here",
    ),
  lastSecondFactor: () =>
    new ApiError(
      409,
      ErrorCode.staffLastSecondFactor,
      'console.error.lastSecondFactor',
      'This is your last second factor: add a passkey or an authenticator app first',
    ),
  passkeyRefused: () =>
    new ApiError(400, ErrorCode.staffPasskeyRefused, 'console.error.passkeyRefused', 'The passkey could not be added: try again'),
  totpAlreadySet: () =>
    new ApiError(409, ErrorCode.staffTotpAlreadySet, 'console.error.totpAlreadySet', 'An authenticator app is set up already'),
  passkeyNotFound: () => new ApiError(404, ErrorCode.notFound, 'console.error.passkeyNotFound', 'No such passkey on your account'),
};
