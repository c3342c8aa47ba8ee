import { z } from 'zod';

/**
 * The console's translations and content (issue 20, section 4; docs/decisions/066): a client's
 * own wording over the shipped texts, per locale, and its rules, FAQs and privacy texts in
 * Markdown. Every role of the client reads; program managers and owners change, with a reason,
 * audited, through the services `rewards clients translations|content import` call.
 */
const seg = encodeURIComponent;
const texts = (clientId: string, locale: string) => `/clients/${seg(clientId)}/translations/${seg(locale)}`;

export const consoleTranslationsPaths = {
  /** GET ?filter=&q=: the locale's keys against the default locale (TranslationsView). */
  translations: texts,
  /** PUT: one key's text in the locale, with a reason; DELETE: the client's own text of it removed (the shipped one shows again). */
  translation: (clientId: string, locale: string, key: string) => `${texts(clientId, locale)}/keys/${seg(key)}`,
  /** POST: a bundle file's texts; `apply: false` only says what would change. */
  importBundle: (clientId: string, locale: string) => `${texts(clientId, locale)}/import`,
  /** GET ?format=json|properties&scope=all|own|toTranslate: the locale as a file the command and this import read. */
  exportBundle: (clientId: string, locale: string) => `${texts(clientId, locale)}/export`,
  /** GET: the client's content texts, which exist in which locale. */
  content: (clientId: string) => `/clients/${seg(clientId)}/content`,
  /** GET and PUT: one text (key: faqs, privacyPolicy, privacyNotice, rules.<program name>). */
  contentEntry: (clientId: string, locale: string, key: string) => `/clients/${seg(clientId)}/content/${seg(locale)}/${seg(key)}`,
  /** POST: Markdown rendered by the portal's own renderer (what participants will see). */
  contentPreview: (clientId: string) => `/clients/${seg(clientId)}/content-preview`,
} as const;

const Reason = z.string().trim().min(3).max(500);
/** A translation key as bundle files name them. */
export const TRANSLATION_KEY = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;
export const MAX_TRANSLATION_LENGTH = 10_000;
/** The largest bundle file the command and the console read. */
export const MAX_BUNDLE_BYTES = 2 * 1024 * 1024;
/** The largest content text (Markdown). */
export const MAX_CONTENT_BYTES = 200 * 1024;

export const TranslationsParams = z.object({
  clientId: z.string().min(1).max(64),
  locale: z.string().min(2).max(35),
});
export const TranslationKeyParams = TranslationsParams.extend({ key: z.string().regex(TRANSLATION_KEY, 'not a translation key') });

export const TRANSLATION_FILTERS = ['all', 'toTranslate', 'mismatch', 'own'] as const;
export const TranslationsQuery = z.object({
  filter: z.enum(TRANSLATION_FILTERS).default('all'),
  /** Part of a key or text, any case. */
  q: z.string().trim().max(200).default(''),
});
export type TranslationsQuery = z.input<typeof TranslationsQuery>;

/**
 * Where a locale's text of a key comes from: the client's own wording, the shipped bundle, or
 * nowhere (the portal shows the English of the shipped bundles, or the key).
 */
export const TextSource = z.enum(['client', 'shipped', 'none']);
export type TextSource = z.infer<typeof TextSource>;

export const TranslationRow = z.object({
  key: z.string(),
  /** The default locale's text, as the portal shows it. */
  reference: z.string().nullable(),
  /** This locale's text (null: none, the portal falls back). */
  text: z.string().nullable(),
  source: TextSource,
  /**
   * missing: no text in this locale; untranslated: the default locale has the client's own
   * wording and this one only the shipped text; ok otherwise (always ok in the default locale).
   */
  state: z.enum(['missing', 'untranslated', 'ok']),
  /** The {placeholders} when they differ from the reference's (null: they agree). */
  placeholders: z.object({ expected: z.array(z.string()), found: z.array(z.string()) }).nullable(),
});
export type TranslationRow = z.infer<typeof TranslationRow>;

export const TranslationsView = z.object({
  locale: z.string(),
  defaultLocale: z.string(),
  locales: z.array(z.object({ code: z.string(), name: z.string() })),
  counts: z.object({
    keys: z.number().int(),
    missing: z.number().int(),
    untranslated: z.number().int(),
    mismatches: z.number().int(),
    own: z.number().int(),
  }),
  /** The rows the filter and search keep, by key; at most MAX_ROWS (then `truncated`). */
  rows: z.array(TranslationRow),
  truncated: z.boolean(),
});
export type TranslationsView = z.infer<typeof TranslationsView>;
export const MAX_TRANSLATION_ROWS = 2_000;

export const TranslationRequest = z.object({ text: z.string().max(MAX_TRANSLATION_LENGTH), reason: Reason });
export type TranslationRequest = z.infer<typeof TranslationRequest>;
export const RemoveTranslationRequest = z.object({ reason: Reason });
/** auditId null: the text was already that, nothing written. */
export const TranslationReply = z.object({ row: TranslationRow, auditId: z.string().nullable() });
export type TranslationReply = z.infer<typeof TranslationReply>;

export const BUNDLE_FORMATS = ['json', 'properties'] as const;
export type BundleFormat = (typeof BUNDLE_FORMATS)[number];

export const ImportBundleRequest = z.object({
  /** The file's name, for messages and the audit entry. */
  fileName: z.string().trim().min(1).max(200),
  format: z.enum(BUNDLE_FORMATS),
  /** The file's text (UTF-8). */
  content: z.string().max(MAX_BUNDLE_BYTES),
  /** false: what would change, nothing written; true: written, audited. */
  apply: z.boolean(),
  /** Required to apply. */
  reason: Reason.optional(),
});
export type ImportBundleRequest = z.infer<typeof ImportBundleRequest>;

export const ImportBundleReply = z.object({
  locale: z.string(),
  applied: z.boolean(),
  added: z.array(z.string()),
  updated: z.array(z.string()),
  unchanged: z.number().int(),
  /** Keys refused: a placeholder the default locale's text does not have. */
  rejected: z.array(z.object({ key: z.string(), expected: z.array(z.string()), found: z.array(z.string()) })),
  /** Keys of the file the default locale does not have (imported; nothing shows them yet). */
  extra: z.array(z.string()),
  /** Keys imported with placeholders left out. */
  placeholderMismatches: z.array(z.object({ key: z.string(), expected: z.array(z.string()), found: z.array(z.string()) })),
  /** Keys of the default locale this locale still has no text for after the import. */
  missing: z.array(z.string()),
  auditId: z.string().nullable(),
});
export type ImportBundleReply = z.infer<typeof ImportBundleReply>;

export const EXPORT_SCOPES = ['all', 'own', 'toTranslate'] as const;
export type ExportScope = (typeof EXPORT_SCOPES)[number];

export const ExportBundleQuery = z.object({
  format: z.enum(BUNDLE_FORMATS).default('json'),
  /**
   * all: the locale's texts (shipped and the client's own); own: the client's own wording only;
   * toTranslate: the keys missing or untranslated, with the default locale's text to translate.
   */
  scope: z.enum(EXPORT_SCOPES).default('all'),
});

// ---------------------------------------------------------------------------------------------
// Content: rules, FAQs, privacy policy and notice, Markdown per locale

export const ContentParams = z.object({ clientId: z.string().min(1).max(64) });
export const ContentEntryParams = ContentParams.extend({ locale: z.string().min(2).max(35), key: z.string().min(1).max(120) });

export const ContentList = z.object({
  defaultLocale: z.string(),
  locales: z.array(z.object({ code: z.string(), name: z.string() })),
  /** The fixed keys and one `rules.<program>` per program the client's participants are in or that has rules. */
  keys: z.array(z.string()),
  entries: z.array(z.object({ key: z.string(), locale: z.string(), updatedAt: z.string(), length: z.number().int() })),
});
export type ContentList = z.infer<typeof ContentList>;

export const ContentEntry = z.object({
  key: z.string(),
  locale: z.string(),
  /** Markdown; null: none yet in this locale. */
  body: z.string().nullable(),
  /** The portal's rendering of body. */
  html: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type ContentEntry = z.infer<typeof ContentEntry>;

export const ContentRequest = z.object({ body: z.string().max(MAX_CONTENT_BYTES), reason: Reason });
export type ContentRequest = z.infer<typeof ContentRequest>;
export const ContentReply = ContentEntry.extend({ auditId: z.string().nullable() });
export type ContentReply = z.infer<typeof ContentReply>;
/** DELETE one text in one locale, with a reason: the portal then shows what it shows without it (decision 066). */
export const RemoveContentRequest = z.object({ reason: Reason });
export type RemoveContentRequest = z.infer<typeof RemoveContentRequest>;

export const ContentPreviewRequest = z.object({ body: z.string().max(MAX_CONTENT_BYTES) });
export const ContentPreviewReply = z.object({ html: z.string() });
export type ContentPreviewReply = z.infer<typeof ContentPreviewReply>;
