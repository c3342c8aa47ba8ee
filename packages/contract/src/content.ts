import { z } from 'zod';
import { LocaleCode } from './locale.ts';
import {
  CONTACT_EMAIL_MAX,
  CONTACT_MESSAGE_MAX,
  CONTACT_PHONE_MAX,
  CONTACT_SUBJECT_MAX,
  CONTACT_TOPICS,
  isContactEmail,
  isContactPhone,
} from './content-rules.ts';

/*
 * Content pages and contactUs (spec sections 2, 6, 7; decision 011). The keys, limits and checks
 * live in content-rules.ts (no zod there: the web imports them); the schemas here use them.
 */
export * from './content-rules.ts';

export const ContentKeyParams = z.object({ key: z.string().min(1).max(200) });

/** Only read when nobody is signed in: a signed-in participant gets their own language. */
export const ContentQuery = z.object({ locale: LocaleCode.optional() });

/**
 * Spec: `{properties: [{value}]}`, the text being the first property's value. `value` is HTML the
 * server rendered from Markdown with raw HTML disabled; `locale` is the language actually served
 * (a fallback may differ from the one asked for), `updatedAt` when it was last edited.
 */
export const ContentProperty = z.object({ value: z.string(), locale: LocaleCode, updatedAt: z.string() });
export const ContentReply = z.object({ properties: z.array(ContentProperty).min(1) });
export type ContentReply = z.infer<typeof ContentReply>;

export const ContactTopic = z.enum(CONTACT_TOPICS);
export type ContactTopic = z.infer<typeof ContactTopic>;

const optionalText = (max: number, check: (value: string) => boolean, message: string) =>
  z
    .string()
    .trim()
    .max(max, { message: 'tooLong' })
    .refine((value) => value === '' || check(value), { message })
    .optional();

/**
 * The contact form, validated by the web before sending and by the server on arrival. Issue
 * messages are short codes (`required`, `tooLong`, `invalid`) the web turns into translated text.
 */
export const ContactRequest = z.object({
  topic: ContactTopic,
  subject: z.string().trim().min(1, { message: 'required' }).max(CONTACT_SUBJECT_MAX, { message: 'tooLong' }),
  message: z.string().trim().min(1, { message: 'required' }).max(CONTACT_MESSAGE_MAX, { message: 'tooLong' }),
  replyEmail: optionalText(CONTACT_EMAIL_MAX, isContactEmail, 'invalid'),
  phone: optionalText(CONTACT_PHONE_MAX, isContactPhone, 'invalid'),
});
export type ContactRequest = z.infer<typeof ContactRequest>;

/** Spec: reply "not shown". The desk's reference for the request and its status. */
export const ContactReply = z.object({ requestId: z.string(), status: z.literal('new') });
export type ContactReply = z.infer<typeof ContactReply>;

/** Submissions a participant may send per window before 429 (decision 011). */
export const CONTACT_THROTTLE = { max: 5, windowMinutes: 60 } as const;
