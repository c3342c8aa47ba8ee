import {
  CONTACT_EMAIL_MAX,
  CONTACT_MESSAGE_MAX,
  CONTACT_PHONE_MAX,
  CONTACT_SUBJECT_MAX,
  checkContactForm,
  type ContactField,
  type ContactForm,
} from '@rewards/contract/content-rules';

export type ContactValues = Record<ContactField, string>;

export const emptyContact: ContactValues = { topic: '', subject: '', message: '', replyEmail: '', phone: '' };

const CONTACT_LIMITS: Record<ContactField, number> = {
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
 * Checks the form with the rules the server's schema is built from (packages/contract/src/
 * content-rules.ts, without zod: decision 015) and turns the issue codes into translation keys.
 */
export function validateContact(
  values: ContactValues,
): { ok: true; request: ContactForm } | { ok: false; errors: Partial<Record<ContactField, FieldError>> } {
  const checked = checkContactForm(values);
  if (checked.ok) return { ok: true, request: checked.form };
  const errors: Partial<Record<ContactField, FieldError>> = {};
  for (const [field, issue] of Object.entries(checked.issues) as Array<[ContactField, string]>) {
    if (field === 'topic') errors[field] = { key: 'contact.form.error.topic' };
    else if (issue === 'tooLong') errors[field] = { key: 'contact.form.error.tooLong', values: { max: CONTACT_LIMITS[field] } };
    else if (issue === 'invalid') errors[field] = { key: INVALID_KEYS[field] ?? 'contact.form.error.required' };
    else errors[field] = { key: 'contact.form.error.required' };
  }
  return { ok: false, errors };
}
