/*
 * The rules of content pages and the contact form without zod, so that the web app can import
 * them without carrying the schema library (22 kB compressed) into the browser (decision 015).
 * content.ts builds the server's zod schemas from these very rules, so both sides agree.
 */

/*
 * Content keys of `GET cmmo/key/honeycombSystem/{key}`:
 * - `faqs`, `privacyPolicy`: public, served to anonymous visitors too;
 * - `privacyNotice`: signed-in only;
 * - `rules.<program name>`: signed-in only, and only for a program the participant is in.
 */
export const contentKeys = {
  faqs: 'faqs',
  privacyPolicy: 'privacyPolicy',
  privacyNotice: 'privacyNotice',
} as const;

export const RULES_KEY_PREFIX = 'rules.';

/** The key of a program's rules: the program name as `user/program-names` gives it. */
export const rulesKey = (programName: string) => `${RULES_KEY_PREFIX}${programName}`;

export const PUBLIC_CONTENT_KEYS: readonly string[] = [contentKeys.faqs, contentKeys.privacyPolicy];

export const CONTACT_TOPICS = ['points', 'order', 'ots', 'account', 'other'] as const;
export type ContactTopic = (typeof CONTACT_TOPICS)[number];

export const CONTACT_SUBJECT_MAX = 120;
export const CONTACT_MESSAGE_MAX = 2000;
export const CONTACT_EMAIL_MAX = 254;
export const CONTACT_PHONE_MAX = 25;

/** Digits with the usual separators, an optional leading +; at least 5 digits. */
const PHONE_PATTERN = /^\+?[0-9 ().-]{5,25}$/;
/** The address pattern zod's z.email() uses (zod 4, regexes.email). */
const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export const isContactPhone = (value: string) => PHONE_PATTERN.test(value) && value.replace(/\D/g, '').length >= 5;
export const isContactEmail = (value: string) => EMAIL_PATTERN.test(value);

export type ContactField = 'topic' | 'subject' | 'message' | 'replyEmail' | 'phone';
/** Issue codes the web turns into translated text. */
export type ContactIssue = 'required' | 'tooLong' | 'invalid';

export interface ContactForm {
  topic: ContactTopic;
  subject: string;
  message: string;
  replyEmail?: string | undefined;
  phone?: string | undefined;
}

/**
 * The contact form's checks as the server's schema makes them (trimmed texts; subject and
 * message required; reply address and phone optional but valid when given): the form with
 * trimmed values, or the first issue of each field.
 */
export function checkContactForm(
  values: Record<ContactField, string>,
): { ok: true; form: ContactForm } | { ok: false; issues: Partial<Record<ContactField, ContactIssue>> } {
  const issues: Partial<Record<ContactField, ContactIssue>> = {};
  const topic = (CONTACT_TOPICS as readonly string[]).includes(values.topic) ? (values.topic as ContactTopic) : undefined;
  if (!topic) issues.topic = 'invalid';
  const required = (field: 'subject' | 'message', max: number) => {
    const value = values[field].trim();
    if (value === '') issues[field] = 'required';
    else if (value.length > max) issues[field] = 'tooLong';
    return value;
  };
  const optional = (field: 'replyEmail' | 'phone', max: number, check: (value: string) => boolean) => {
    const value = values[field].trim();
    if (value.length > max) issues[field] = 'tooLong';
    else if (value !== '' && !check(value)) issues[field] = 'invalid';
    return value;
  };
  const subject = required('subject', CONTACT_SUBJECT_MAX);
  const message = required('message', CONTACT_MESSAGE_MAX);
  const replyEmail = optional('replyEmail', CONTACT_EMAIL_MAX, isContactEmail);
  const phone = optional('phone', CONTACT_PHONE_MAX, isContactPhone);
  if (!topic || Object.keys(issues).length > 0) return { ok: false, issues };
  return { ok: true, form: { topic, subject, message, replyEmail, phone } };
}
