import {
  CONTACT_EMAIL_MAX,
  CONTACT_MESSAGE_MAX,
  CONTACT_PHONE_MAX,
  CONTACT_SUBJECT_MAX,
  ContactRequest,
  type ContactField,
} from '@rewards/contract/content';

export type ContactValues = Record<ContactField, string>;

export const emptyContact: ContactValues = { topic: '', subject: '', message: '', replyEmail: '', phone: '' };

export const CONTACT_LIMITS: Record<ContactField, number> = {
  topic: 20,
  subject: CONTACT_SUBJECT_MAX,
  message: CONTACT_MESSAGE_MAX,
  replyEmail: CONTACT_EMAIL_MAX,
  phone: CONTACT_PHONE_MAX,
};

export interface FieldError {
  key: string;
  values?: Record<string, number>;
}

const INVALID_KEYS: Partial<Record<ContactField, string>> = {
  replyEmail: 'contact.form.error.email',
  phone: 'contact.form.error.phone',
};

/**
 * Checks the form with the schema the server uses (packages/contract/src/content.ts) and turns
 * its issue codes into translation keys, one per field.
 */
export function validateContact(values: ContactValues): { ok: true; request: ContactRequest } | { ok: false; errors: Partial<Record<ContactField, FieldError>> } {
  const parsed = ContactRequest.safeParse(values);
  if (parsed.success) return { ok: true, request: parsed.data };
  const errors: Partial<Record<ContactField, FieldError>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as ContactField;
    if (errors[field]) continue;
    if (field === 'topic') errors[field] = { key: 'contact.form.error.topic' };
    else if (issue.message === 'tooLong') errors[field] = { key: 'contact.form.error.tooLong', values: { max: CONTACT_LIMITS[field] } };
    else if (issue.message === 'invalid') errors[field] = { key: INVALID_KEYS[field] ?? 'contact.form.error.required' };
    else errors[field] = { key: 'contact.form.error.required' };
  }
  return { ok: false, errors };
}
