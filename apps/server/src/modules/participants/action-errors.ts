import { ErrorCode } from '@rewards/contract';
import { ApiError } from '../../http/api-error.ts';

/**
 * Refusals of the participant actions shared by the console, the `rewards` commands and the
 * admin API (docs/decisions/048). Each says what happened and that nothing changed; the message
 * is what the command shows (and logs keep), the key and its params are what the console puts in
 * its own words (decision 087).
 */
export const actionErrors = {
  insufficientBalance: (balance: number, points: number, username: string) =>
    new ApiError(
      409,
      ErrorCode.consoleInsufficientBalance,
      'console.error.insufficientBalance',
      `The balance of ${username} (${balance}) does not cover ${points}; nothing was posted`,
      // Only a debit can fail so: the console names its size.
      { username, balance, debit: Math.abs(points) },
    ),
  agentLimitReached: (max: number, left: number) =>
    new ApiError(
      429,
      ErrorCode.consoleAgentLimitReached,
      'console.error.agentLimitReached',
      `This passes your daily adjustment limit in this client (${max} points, credits and debits together): ${left} left today; nothing was posted`,
      { max, left },
    ),
  requestIdReused: () =>
    new ApiError(
      409,
      ErrorCode.consoleRequestIdReused,
      'console.error.requestIdReused',
      'This form was already sent with another adjustment: reload the page to make a new one',
    ),
  /** The status asked for is the participant's already (`status`), or the details are already so (no status). */
  nothingToChange: (username: string, status?: string) =>
    new ApiError(
      409,
      ErrorCode.consoleNothingToChange,
      'console.error.nothingToChange',
      status === undefined ? `${username}'s details are already so; nothing changed` : `${username} is already ${status}; nothing changed`,
      status === undefined ? { username, reason: 'details' } : { username, status, reason: 'status' },
    ),
  /** Why the mail does not apply: the account is not pending (activation), not active yet (reset), or has no address. */
  mailNotApplicable: (username: string, reason: 'notPending' | 'notActivated' | 'noEmail', status: string) =>
    new ApiError(
      409,
      ErrorCode.consoleMailNotApplicable,
      'console.error.mailNotApplicable',
      reason === 'notPending'
        ? `${username} is ${status}, not pending: there is nothing to activate; send a password reset instead`
        : reason === 'notActivated'
          ? `${username} has not activated their account yet and has no password to reset; send the activation mail instead`
          : `${username} has no e-mail address`,
      { username, reason, status },
    ),
  noWayBackToPending: (username: string) =>
    new ApiError(
      409,
      ErrorCode.consoleNoWayBackToPending,
      'console.error.noWayBackToPending',
      `${username} has activated their account, which cannot go back to pending: set it inactive, or send a password reset to their own address; nothing changed`,
      { username },
    ),
  emailRecentlyChanged: (username: string, until: string) =>
    new ApiError(
      409,
      ErrorCode.consoleEmailRecentlyChanged,
      'console.error.emailRecentlyChanged',
      `Staff changed the e-mail address of ${username} less than 24 hours ago: until ${until} only a program manager or an owner may send a link there, after confirming it is them; nothing was sent`,
      { username, until },
    ),
  mailThrottled: () =>
    new ApiError(
      429,
      ErrorCode.consoleMailThrottled,
      'console.error.mailThrottled',
      'Too many of these mails to this participant for now: try again in a quarter of an hour',
    ),
};
