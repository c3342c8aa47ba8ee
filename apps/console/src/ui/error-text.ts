import { ErrorCode, type ErrorParams } from '@rewards/contract/errors';
import { ConsoleApiError } from '../api/client.ts';
import { formatDate, formatDateTime, formatNumber, hasMessage, t, type MessageKey } from '../i18n/t.ts';

/**
 * The one way a refusal becomes words on screen (issue 30 §6, decision 087): the server sends a key
 * (responseMessage) and, where a refusal has particulars, params; the console's text of that key says
 * it. A params.reason picks the key's variant (`key.reason`) when the console has one. The server's
 * English `message` is for logs and the commands; it reaches the screen only inside the text of a
 * validation refusal that names no field (the services' own checks, which send no params yet).
 */
export function errorText(error: unknown): string {
  if (error instanceof ConsoleApiError) {
    if (error.status >= 500) return t('error.server');
    if (error.errorCode === ErrorCode.forbidden) return t('error.forbidden');
    if (error.responseMessage === 'error.validation') return validationText(error);
    const key = textKey(error.responseMessage, error.params);
    if (key) return t(key, shown(error.params));
    // A key this console has no text for (a test keeps the console routes' keys covered): the status says what it can.
    return error.status === 404 ? t('error.notFound') : t('error.validation');
  }
  if (error instanceof Error && error.name === 'NotAllowedError') return t('error.passkeyCancelled');
  return t('error.network');
}

function textKey(responseMessage: string, params: ErrorParams): MessageKey | undefined {
  const variant = typeof params.reason === 'string' ? `${responseMessage}.${params.reason}` : undefined;
  if (variant && hasMessage(variant)) return variant;
  return hasMessage(responseMessage) ? responseMessage : undefined;
}

/** A schema refusal names its fields (and where: body, querystring, params); a service's own check says why in its message. */
function validationText(error: ConsoleApiError): string {
  const { fields, where } = error.params;
  if (typeof fields === 'string' && fields !== '' && fields !== where)
    return t('error.validation.fields', { fields: list.format(fields.split(', ').map(fieldName)) });
  if (error.message && error.message !== 'The request is not valid') return t('error.validation.detail', { detail: error.message });
  return t('error.validation');
}

/** Particulars as the console writes them elsewhere: numbers grouped, times and dates in its format, statuses in its words. */
function shown(params: ErrorParams): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'number') out[name] = formatNumber(value);
    else if (name === 'until') out[name] = formatDateTime(value);
    else if (name === 'revokedAt') out[name] = formatDate(value);
    else if (name === 'status' && hasMessage(`status.${value}`)) out[name] = t(`status.${value}` as MessageKey);
    else if (name === 'catalogs') out[name] = list.format(value.split(', ').map(offering));
    else out[name] = value;
  }
  return out;
}

const list = new Intl.ListFormat('en-GB');
const offering = (kind: string) => (hasMessage(`offering.${kind}`) ? t(`offering.${kind}` as MessageKey) : kind);
/** A field as the console's forms call it; a nested one (`roles.0.role`) by its first part. */
const fieldName = (field: string) => {
  const top = field.split('.')[0] ?? field;
  return hasMessage(`field.${top}`) ? t(`field.${top}` as MessageKey) : field;
};
