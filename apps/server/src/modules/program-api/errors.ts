import { ErrorCode } from '@rewards/contract';
import { ApiError } from '../../http/api-error.ts';

/** A caller's text echoed in a message: short, so a message stays a line. */
const clip = (value: string) => (value.length > 60 ? `${value.slice(0, 60)}…` : value);

/** The program API's refusals (decision 085); each says that nothing was changed. */
export const programErrors = {
  participantNotFound: (username: string) =>
    new ApiError(404, ErrorCode.notFound, 'error.notFound', `No participant "${clip(username)}" in this program`),
  postingNotFound: (externalId: string) =>
    new ApiError(404, ErrorCode.notFound, 'error.notFound', `No posting with externalId "${clip(externalId)}" in this program`),
  insufficientBalance: (username: string, balance: number, points: number) =>
    new ApiError(
      409,
      ErrorCode.programInsufficientBalance,
      'program.error.insufficientBalance',
      `The balance of ${clip(username)} (${balance}) does not cover ${points}; nothing was posted`,
    ),
  externalIdReused: (externalId: string) =>
    new ApiError(
      409,
      ErrorCode.programExternalIdReused,
      'program.error.externalIdReused',
      `externalId "${clip(externalId)}" was posted already with another body; nothing was posted`,
    ),
  alreadyReversed: (externalId: string, points: number | null) =>
    new ApiError(
      409,
      ErrorCode.programAlreadyReversed,
      'program.error.alreadyReversed',
      `The posting "${clip(externalId)}" was reversed already${points === null ? '' : ` (${points} points)`}: a posting is reversed once; nothing was posted`,
    ),
  reversalTooLarge: (externalId: string, points: number, posted: number) =>
    new ApiError(
      400,
      ErrorCode.programReversalTooLarge,
      'program.error.reversalTooLarge',
      `A reversal of ${points} points is more than the posting "${clip(externalId)}" had (${posted}); nothing was posted`,
    ),
};
