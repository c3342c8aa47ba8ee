import { ErrorCode } from '@rewards/contract';
import { ApiError } from '../../http/api-error.ts';

/** API keys' refusals (93xxx, docs/decisions/083); the console's texts under apiKeys.error.* */
export const apiKeyErrors = {
  // One answer for a missing, malformed, unknown, wrong or revoked key: no hint which.
  invalid: () => new ApiError(401, ErrorCode.apiKeyInvalid, 'error.forbidden', 'Missing or invalid API key'),
  scopeMissing: (scope: string) =>
    new ApiError(403, ErrorCode.apiKeyScopeMissing, 'error.forbidden', `This API key does not have the scope ${scope}`),
  rateLimited: () =>
    new ApiError(
      429,
      ErrorCode.apiKeyRateLimited,
      'error.generic',
      "This API key's rate limit is reached; try again after Retry-After seconds",
    ),
  throttled: () => new ApiError(429, ErrorCode.apiKeyThrottled, 'error.generic', 'Too many attempts with bad API keys; try again later'),
  nameTaken: (name: string) =>
    new ApiError(
      409,
      ErrorCode.apiKeyNameTaken,
      'apiKeys.error.nameTaken',
      `The client has a key named "${name}" already; revoke it or choose another name`,
    ),
  notFound: () => new ApiError(404, ErrorCode.notFound, 'error.notFound', 'No such API key in this client'),
  clientNotFound: () => new ApiError(404, ErrorCode.notFound, 'error.notFound', 'No such client'),
  invalidInput: (detail: string) => new ApiError(400, ErrorCode.validation, 'error.validation', detail),
};
