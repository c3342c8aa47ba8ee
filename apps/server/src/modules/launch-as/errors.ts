import { ErrorCode } from '@rewards/contract';
import { ApiError } from '../../http/api-error.ts';

/** Launch-as and admin API refusals (91xxx); keys in launch-as.*.json. */
export const launchErrors = {
  tokenInvalid: () => new ApiError(400, ErrorCode.launchTokenInvalid, 'launchAs.error.invalid', 'Unknown launch token'),
  tokenExpired: () => new ApiError(410, ErrorCode.launchTokenExpired, 'launchAs.error.expired', 'The launch token has expired'),
  tokenUsed: () => new ApiError(409, ErrorCode.launchTokenUsed, 'launchAs.error.used', 'The launch token has already been used'),
  // One answer for a missing, malformed, unknown, wrong or revoked key: no hint which.
  keyInvalid: () => new ApiError(401, ErrorCode.adminKeyInvalid, 'error.forbidden', 'Missing or invalid admin key'),
  keyForbidden: () => new ApiError(403, ErrorCode.adminKeyForbidden, 'error.forbidden', 'This key may not act on that client'),
  clientRequired: () => new ApiError(400, ErrorCode.validation, 'error.validation', 'A key of every client must name the client'),
  participantNotFound: () => new ApiError(404, ErrorCode.adminParticipantNotFound, 'error.notFound', 'No such participant in this client'),
  clientNotFound: () => new ApiError(404, ErrorCode.notFound, 'error.notFound', 'No such client'),
  keyThrottled: () => new ApiError(429, ErrorCode.adminKeyThrottled, 'error.generic', 'Too many attempts with bad keys; try again later'),
};
