import { ErrorCode } from '@rewards/contract';
import { ApiError } from '../../http/api-error.ts';

/**
 * Refusals of the participant actions shared by the console, the `rewards` commands and the
 * admin API (docs/decisions/048). Each says what happened and that nothing changed; the message
 * is what the console and the command show, the key is the console's to translate.
 */
export const actionErrors = {
  insufficientBalance: (balance: number, points: number, username: string) =>
    new ApiError(
      409,
      ErrorCode.consoleInsufficientBalance,
      'console.error.insufficientBalance',
      `The balance of ${username} (${balance}) does not cover ${points}; nothing was posted`,
    ),
  agentLimitReached: (max: number, left: number) =>
    new ApiError(
      429,
      ErrorCode.consoleAgentLimitReached,
      'console.error.agentLimitReached',
      `This passes your daily adjustment limit in this client (${max} points, credits and debits together): ${left} left today; nothing was posted`,
    ),
  requestIdReused: () =>
    new ApiError(
      409,
      ErrorCode.consoleRequestIdReused,
      'console.error.requestIdReused',
      'This form was already sent with another adjustment: reload the page to make a new one',
    ),
  nothingToChange: (what: string) =>
    new ApiError(409, ErrorCode.consoleNothingToChange, 'console.error.nothingToChange', `${what}; nothing changed`),
  mailNotApplicable: (detail: string) => new ApiError(409, ErrorCode.consoleMailNotApplicable, 'console.error.mailNotApplicable', detail),
  noWayBackToPending: (username: string) =>
    new ApiError(
      409,
      ErrorCode.consoleNoWayBackToPending,
      'console.error.noWayBackToPending',
      `${username} has activated their account, which cannot go back to pending: set it inactive, or send a password reset to their own address; nothing changed`,
    ),
  emailRecentlyChanged: (username: string, until: string) =>
    new ApiError(
      409,
      ErrorCode.consoleEmailRecentlyChanged,
      'console.error.emailRecentlyChanged',
      `Staff changed the e-mail address of ${username} less than 24 hours ago: until ${until} only a program manager or an owner may send a link there, after confirming it is them; nothing was sent`,
    ),
  mailThrottled: () =>
    new ApiError(
      429,
      ErrorCode.consoleMailThrottled,
      'console.error.mailThrottled',
      'Too many of these mails to this participant for now: try again in a quarter of an hour',
    ),
};
