import { ErrorCode, type ErrorParams } from '@rewards/contract';

/**
 * An error the caller can act on: its status, numeric code and the translation key the UI shows.
 * Services throw these; the one error handler turns them into the wire shape. `message` is English
 * for logs and the commands; `params` carry the particulars an app puts in its own words (decision 087).
 */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly errorCode: number;
  readonly responseMessage: string;
  readonly params: ErrorParams | undefined;

  constructor(statusCode: number, errorCode: number, responseMessage: string, message: string, params?: ErrorParams) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.errorCode = errorCode;
    this.responseMessage = responseMessage;
    this.params = params;
  }
}

export const errors = {
  validation: (detail = 'The request is not valid', params?: ErrorParams) =>
    new ApiError(400, ErrorCode.validation, 'error.validation', detail, params),
  unknownClient: () => new ApiError(400, ErrorCode.unknownClient, 'error.unknownClient', 'No program is configured for this site'),
  notFound: () => new ApiError(404, ErrorCode.notFound, 'error.notFound', 'Not found'),
  sessionRequired: () => new ApiError(401, ErrorCode.sessionRequired, 'error.session.expired', 'No valid session'),
  forbidden: () => new ApiError(403, ErrorCode.forbidden, 'error.forbidden', 'Not allowed for this role'),
  invalidCredentials: () =>
    new ApiError(401, ErrorCode.invalidCredentials, 'login.error.invalidCredentials', 'Invalid username or password'),
  preActivation: () => new ApiError(403, ErrorCode.preActivation, 'login.warning.preActivation', 'The account is not activated yet'),
  accountInactive: () => new ApiError(403, ErrorCode.accountInactive, 'login.error.inactive', 'The account is inactive'),
  loginThrottled: () => new ApiError(429, ErrorCode.loginThrottled, 'login.error.throttled', 'Too many failed sign-in attempts'),
  unsupportedLocale: () => new ApiError(400, ErrorCode.unsupportedLocale, 'error.unsupportedLocale', 'This language is not offered'),
};
