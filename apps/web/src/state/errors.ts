/** Error categories, one per action (spec section 8). */
export type ErrorType =
  | 'activation'
  | 'clientData'
  | 'bundle'
  | 'forgotPassword'
  | 'forgotUserId'
  | 'exportRules'
  | 'contactUs'
  | 'resetPassword'
  | 'login'
  | 'logout'
  | 'changePassword'
  | 'setLocale'
  | 'validateSession'
  | 'catalogUrl'
  | 'ots'
  | 'privacyNotice'
  | 'ssoNoSessionId'
  | 'ssoFetchProfile'
  | 'ssoAuthenticated'
  | 'ssoInvalidCredentials';

export type SuccessType = 'forgotPassword' | 'forgotUserId' | 'contactUs' | 'resetPassword' | 'changePassword' | 'setLocale' | 'ots';

/** The server's error fields as far as they are known (spec section 3, Error item). */
interface ServerErrorFields {
  message: string;
  name?: string;
  errorCode: number | null;
  responseMessage?: string;
  localeCode?: string;
}

export interface ErrorItem extends ServerErrorFields {
  errorType: ErrorType;
  errorId: number;
}

export interface SuccessItem {
  successType: SuccessType;
  /** A translation key. */
  message: string;
  /** Values for the key's placeholders (the points of an on-the-spot redeem). */
  values?: Readonly<Record<string, string | number>>;
  done: boolean;
}

/**
 * Spec section 8: a server error is recognised by a message plus a name, or a numeric errorCode,
 * or a null errorCode with a responseMessage.
 */
export function isServerError(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    (typeof record.message === 'string' && typeof record.name === 'string') ||
    typeof record.errorCode === 'number' ||
    (record.errorCode === null && typeof record.responseMessage === 'string')
  );
}

/** Anything thrown, as the fields an ErrorItem keeps; what is not recognised is wrapped as generic. */
export function toServerError(value: unknown): ServerErrorFields {
  if (isServerError(value)) {
    const record = value as Record<string, unknown>;
    const fields: ServerErrorFields = {
      message: typeof record.message === 'string' ? record.message : '',
      errorCode: typeof record.errorCode === 'number' ? record.errorCode : null,
    };
    if (typeof record.name === 'string') fields.name = record.name;
    if (typeof record.responseMessage === 'string' && record.responseMessage) fields.responseMessage = record.responseMessage;
    if (typeof record.localeCode === 'string') fields.localeCode = record.localeCode;
    return fields;
  }
  return {
    name: 'Error',
    message: typeof value === 'string' ? value : 'Unexpected error',
    errorCode: null,
    responseMessage: 'error.generic',
  };
}

/** The translation key to show: responseMessage, else message (spec section 8). */
function errorMessageCode(error: ServerErrorFields): string {
  return error.responseMessage || error.message || 'error.generic';
}

export function addError(errors: readonly ErrorItem[], nextId: number, errorType: ErrorType, value: unknown): ErrorItem[] {
  return [...errors, { ...toServerError(value), errorType, errorId: nextId }];
}

export const dismissError = (errors: readonly ErrorItem[], errorId: number) => errors.filter((e) => e.errorId !== errorId);

export const dismissErrorsOfType = (errors: readonly ErrorItem[], ...types: ErrorType[]) =>
  errors.filter((e) => !types.includes(e.errorType));

/** The text of an error for the user: its code translated, with the media label filled in. */
export function errorText(
  error: ServerErrorFields,
  t: (key: string, values?: Readonly<Record<string, string | number>>) => string,
  mediaLabel: string,
): string {
  return t(errorMessageCode(error), { mediaLabel });
}
