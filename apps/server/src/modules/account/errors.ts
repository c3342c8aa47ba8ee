import { ErrorCode } from '@rewards/contract';
import { ApiError } from '../../http/api-error.ts';

/** The account lifecycle's errors; their keys live in the account-errors.<locale>.json bundles. */
export const accountErrors = {
  // One error for every wrong or unknown fact, so a reply never tells who is enrolled. 400, not
  // 401: there is no session here, and the web app's 401 path means "your session timed out".
  activationFailed: () =>
    new ApiError(
      400,
      ErrorCode.activationFailed,
      'account.error.activationFailed',
      'The details do not match an account waiting for activation',
    ),
  // Told only to whoever gave the right facts.
  alreadyActive: () => new ApiError(409, ErrorCode.alreadyActive, 'account.error.alreadyActive', 'This account is already activated'),
  privacyNoticeNotAccepted: () =>
    new ApiError(400, ErrorCode.privacyNoticeNotAccepted, 'account.error.privacyNotice', 'The privacy notice must be accepted'),
  usernameTaken: () => new ApiError(409, ErrorCode.usernameTaken, 'account.error.usernameTaken', 'This username is already taken'),
  throttled: () => new ApiError(429, ErrorCode.accountThrottled, 'account.error.throttled', 'Too many attempts; try again later'),
  resetLinkInvalid: () =>
    new ApiError(400, ErrorCode.resetLinkInvalid, 'account.error.resetLinkInvalid', 'This password reset link is not valid'),
  resetLinkExpired: () =>
    new ApiError(410, ErrorCode.resetLinkExpired, 'account.error.resetLinkExpired', 'This password reset link has expired'),
  resetLinkUsed: () =>
    new ApiError(409, ErrorCode.resetLinkUsed, 'account.error.resetLinkUsed', 'This password reset link has already been used'),
  resetLinkReplaced: () =>
    new ApiError(410, ErrorCode.resetLinkReplaced, 'account.error.resetLinkReplaced', 'A newer password reset link replaced this one'),
};
