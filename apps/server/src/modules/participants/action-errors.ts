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
  mailThrottled: () =>
    new ApiError(
      429,
      ErrorCode.consoleMailThrottled,
      'console.error.mailThrottled',
      'Too many of these mails to this participant for now: try again in a quarter of an hour',
    ),
};
