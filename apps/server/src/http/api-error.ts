import { ErrorCode } from '@rewards/contract';

/**
 * An error the caller can act on: its status, numeric code and the translation key the UI shows.
 * Services throw these; the one error handler turns them into the wire shape.
 */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly errorCode: number;
  readonly responseMessage: string;

  constructor(statusCode: number, errorCode: number, responseMessage: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.errorCode = errorCode;
    this.responseMessage = responseMessage;
  }
}

export const errors = {
  validation: (detail = 'The request is not valid') => new ApiError(400, ErrorCode.validation, 'error.validation', detail),
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
