/** Spec section 8: an on-the-spot error whose message is an empty object shows as this code. */
const OTS_UNKNOWN_ERROR = 'ots.error.unknown';

const emptyObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

/**
 * The error to record for a failed redeem. A message that is an empty object (as such, or as
 * the "[object Object]" an Error makes of it) says nothing a user could read, so it becomes
 * ots.error.unknown; a translated responseMessage from the server is kept as it is.
 */
export function otsError(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const record = error as { message?: unknown; responseMessage?: unknown };
  if (typeof record.responseMessage === 'string' && record.responseMessage !== '') return error;
  if (emptyObject(error) || emptyObject(record.message) || record.message === '[object Object]') {
    return { errorCode: null, responseMessage: OTS_UNKNOWN_ERROR, message: OTS_UNKNOWN_ERROR };
  }
  return error;
}
