import { z } from 'zod';
import { ExpiryPolicy } from './expiry.ts';
import { PasswordRules, SsoLogoutType, SsoType } from './client.ts';

/**
 * The console's client settings beyond the agents' daily limit (./console-participants.ts): points
 * that expire (issue 19, docs/decisions/062). Every role of the client reads them; owners and
 * program managers change them, with a reason, audited.
 */
const seg = encodeURIComponent;

export const consoleClientPaths = {
  /** GET and PUT: the client's expiry policy, time zone and reminder days. */
  expirySettings: (clientId: string) => `/clients/${seg(clientId)}/settings/expiry`,
  /** GET and PUT: the client's name, logo and brand colour (issue 20 §3, docs/decisions/065). */
  brandingSettings: (clientId: string) => `/clients/${seg(clientId)}/settings/branding`,
  /** GET and PUT: the locales in order, the default locale and the media labels. */
  localeSettings: (clientId: string) => `/clients/${seg(clientId)}/settings/locales`,
  /** GET and PUT: password rules, activation fields, the travel link, the support e-mail, the privacy notice version. */
  programSettings: (clientId: string) => `/clients/${seg(clientId)}/settings/program`,
  /** GET and PUT: single sign-on (the provider, checked by its discovery document; the secret write-only). Part H. */
  ssoSettings: (clientId: string) => `/clients/${seg(clientId)}/settings/sso`,
  /** GET and PUT: the merchandise and experiences catalogs and their partners. Part H. */
  catalogSettings: (clientId: string) => `/clients/${seg(clientId)}/settings/catalogs`,
  /** POST: a partner's secret replaced by a new one, in the reply only (a fresh second factor). Part H. */
  partnerSecret: (clientId: string, partnerId: string) => `/clients/${seg(clientId)}/settings/catalogs/partners/${seg(partnerId)}/secret`,
  /** POST: a partner no catalog names any more is revoked (a fresh second factor and a reason). */
  partnerRevoke: (clientId: string, partnerId: string) => `/clients/${seg(clientId)}/settings/catalogs/partners/${seg(partnerId)}/revoke`,
} as const;

/** The most days ahead of an expiry a reminder may go out. */
export const MAX_REMINDER_DAYS = 365;

export const ExpirySettings = z.object({
  policy: ExpiryPolicy,
  /** An IANA time zone (Europe/Paris): points expire at the end of a day there. */
  timeZone: z.string().min(1).max(64),
  /** Days before an expiry when the reminder goes out; more than lastChanceDays. */
  reminderDays: z.number().int().min(1).max(MAX_REMINDER_DAYS),
  /** Days before an expiry when the last-chance mail goes out (0: on the day itself). */
  lastChanceDays: z
    .number()
    .int()
    .min(0)
    .max(MAX_REMINDER_DAYS - 1),
});
export type ExpirySettings = z.infer<typeof ExpirySettings>;

const Reason = z.string().trim().min(3).max(500);

/** PUT: the whole set (the form shows it all), with why. */
export const ExpirySettingsRequest = ExpirySettings.extend({ reason: Reason });
export type ExpirySettingsRequest = z.infer<typeof ExpirySettingsRequest>;

/** PUT answers with the settings as they now are and the audit entry (null: unchanged, nothing written). */
export const ExpirySettingsReply = ExpirySettings.extend({ auditId: z.string().nullable() });
export type ExpirySettingsReply = z.infer<typeof ExpirySettingsReply>;

// ---- Branding (issue 20 §3, docs/decisions/065): the same rules as `rewards clients --name --logo --brand-color`.

const noControl = (s: string) => !/\p{Cc}/u.test(s);

/** The program's name, shown in the portal's header and mails. */
export const ClientName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'at most 100 characters')
  .refine(noControl, 'no control characters');

/** The brand colour, #rrggbb, kept in lower case. */
export const BrandColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour such as #1d4ed8')
  .transform((s) => s.toLowerCase());

export const LogoType = z.enum(['image/svg+xml', 'image/png']);
export type LogoType = z.infer<typeof LogoType>;

/** The most base64 characters a logo takes (256 KB of bytes); the server checks the bytes themselves. */
export const MAX_LOGO_BASE64 = Math.ceil((256 * 1024) / 3) * 4;

/** A logo on the wire: its media type and its bytes as base64. */
export const LogoUpload = z.object({
  type: LogoType,
  // Bounded loosely here: the server's check of the bytes says what is wrong ("… bytes; a logo must be 1 byte to 256 KB").
  base64: z
    .string()
    .min(1)
    .max(MAX_LOGO_BASE64 * 2),
});
export type LogoUpload = z.infer<typeof LogoUpload>;

export const BrandingSettings = z.object({
  name: z.string(),
  brandColor: z.string(),
  logo: LogoUpload,
  /** Where the portal is (the console links to it after a save). */
  portalUrl: z.string(),
});
export type BrandingSettings = z.infer<typeof BrandingSettings>;

/**
 * PUT: name and colour always (the form shows them), a logo only when a new one is chosen; with why.
 * Name and colour are checked by the server's service with ClientName and BrandColor, so a refusal
 * says what is wrong in the command's words.
 */
export const BrandingRequest = z.object({
  name: z.string().max(1000),
  brandColor: z.string().max(100),
  logo: LogoUpload.optional(),
  reason: Reason,
});
export type BrandingRequest = z.input<typeof BrandingRequest>;

export const BrandingReply = BrandingSettings.extend({ auditId: z.string().nullable() });
export type BrandingReply = z.infer<typeof BrandingReply>;

// ---- Locales and media labels (issue 20 §3, decision 065): the rules of `rewards clients --locale --default-locale --media-label`.

export const MAX_LOCALES = 20;

/** A locale the client offers: its tag, direction and its own name for itself (Français). */
export const LocaleSetting = z.object({
  code: z.string().min(1).max(35),
  dir: z.enum(['ltr', 'rtl']),
  name: z.string().trim().min(1).max(60).refine(noControl, 'no control characters'),
});
export type LocaleSetting = z.infer<typeof LocaleSetting>;

/** Forms by Intl.PluralRules category (other required), as stored; a single label is `other` alone. */
export const LabelForms = z.record(z.string().max(10), z.string().max(200));
export type LabelForms = z.infer<typeof LabelForms>;

export const LocaleSettings = z.object({
  locales: z.array(LocaleSetting),
  defaultLocale: z.string(),
  mediaLabels: z.array(z.object({ locale: z.string(), forms: LabelForms })),
});
export type LocaleSettings = z.infer<typeof LocaleSettings>;

/**
 * PUT: the whole list in order (a locale without dir or name gets what Intl knows of it), the
 * default among them, and each locale's media label: one text for every form, or forms by category.
 * A locale left out of mediaLabels keeps its label; a label of a locale no longer offered goes.
 */
export const LocaleSettingsRequest = z.object({
  locales: z
    .array(LocaleSetting.partial({ dir: true, name: true }).extend({ name: z.string().max(200).optional() }))
    .min(1)
    .max(MAX_LOCALES),
  defaultLocale: z.string().min(1).max(35),
  mediaLabels: z.array(z.object({ locale: z.string().min(1).max(35), label: z.union([z.string().max(200), LabelForms]) })).max(MAX_LOCALES),
  reason: Reason,
});
export type LocaleSettingsRequest = z.input<typeof LocaleSettingsRequest>;

export const LocaleSettingsReply = LocaleSettings.extend({ auditId: z.string().nullable() });
export type LocaleSettingsReply = z.infer<typeof LocaleSettingsReply>;

// ---- Program rules (issue 20 §3, decision 065): the rules of `rewards clients --password-rules
// --activation-fields --travel --support-email --privacy-notice-version`.

export const ProgramSettings = z.object({
  passwordRules: PasswordRules,
  /** The fields activation asks for; [] is no self-activation. */
  activationFields: z.array(z.string()),
  /** The redeem menu's travel link; null when none. */
  travelUrl: z.string().nullable(),
  /** The support desk's address; '' when none. */
  supportEmail: z.string(),
  privacyNoticeVersion: z.number().int(),
});
export type ProgramSettings = z.infer<typeof ProgramSettings>;

/** PUT: the whole set (the form shows it all), checked by the server's service, with why. */
export const ProgramSettingsRequest = ProgramSettings.extend({
  activationFields: z.array(z.string().max(40)).max(10),
  travelUrl: z.string().max(2100).nullable(),
  supportEmail: z.string().max(300),
  reason: Reason,
});
export type ProgramSettingsRequest = z.input<typeof ProgramSettingsRequest>;

export const ProgramSettingsReply = ProgramSettings.extend({ auditId: z.string().nullable() });
export type ProgramSettingsReply = z.infer<typeof ProgramSettingsReply>;

// ---- Single sign-on (issue 20 §3, part H, decision 065): what `rewards clients sso` sets. The
// provider's secret is write-only: the GET says only whether one is stored.

export const SsoSettings = z.object({
  /** Whether participants may sign in through the provider (a provider stored and turned on). */
  enabled: z.boolean(),
  issuer: z.string().nullable(),
  /** The portal's client id at the provider. */
  oidcClientId: z.string().nullable(),
  secretStored: z.boolean(),
  claim: z.string(),
  scopes: z.string(),
  ssoType: SsoType,
  ssoLogoutType: SsoLogoutType,
  siteName: z.string(),
  siteUrl: z.string(),
  /** The callback URL of each of the client's hosts, to register at the provider. */
  redirectUris: z.array(z.string()),
});
export type SsoSettings = z.infer<typeof SsoSettings>;

/**
 * PUT: enabled false turns sign-in through the provider off (type login_only, logout login; the
 * provider kept). Otherwise the whole provider, read through its discovery document before
 * anything is stored; clientSecret omitted keeps the stored one.
 */
export const SsoSettingsRequest = z.object({
  enabled: z.boolean(),
  issuer: z.string().max(2000).optional(),
  oidcClientId: z.string().max(400).optional(),
  clientSecret: z.string().max(1000).optional(),
  claim: z.string().max(100).optional(),
  scopes: z.string().max(2100).optional(),
  ssoType: z.string().max(40).optional(),
  ssoLogoutType: z.string().max(40).optional(),
  siteName: z.string().max(200).optional(),
  siteUrl: z.string().max(2100).optional(),
  reason: Reason,
});
export type SsoSettingsRequest = z.input<typeof SsoSettingsRequest>;

export const SsoSettingsReply = SsoSettings.extend({
  auditId: z.string().nullable(),
  /** Whether the provider publishes an end-session endpoint (signing out at the provider works); null when off. */
  endSessionEndpoint: z.boolean().nullable(),
});
export type SsoSettingsReply = z.infer<typeof SsoSettingsReply>;

// ---- Catalogs and their partners (issue 20 §3, part H): what `rewards clients --merchandise
// --merchandise-partner --experiences --experiences-partner --new-partner-secret` set. A partner's
// secret exists only in the reply that issues it (the server keeps its hash).

export const CatalogOffering = z.object({ url: z.string(), partnerId: z.string() });
export type CatalogOffering = z.infer<typeof CatalogOffering>;

export const CatalogSettings = z.object({
  merchandise: CatalogOffering.nullable(),
  experiences: CatalogOffering.nullable(),
  /** Revoked partners stay listed (their orders name them), with the day they were revoked. */
  partners: z.array(z.object({ id: z.string(), name: z.string(), createdAt: z.string(), revokedAt: z.string().nullable() })),
});
export type CatalogSettings = z.infer<typeof CatalogSettings>;

const CatalogOfferingRequest = z.object({ url: z.string().max(2100), partnerId: z.string().max(200) }).nullable();

/** PUT: both offerings (null withdraws one); a partner id new to the installation is created with a secret. */
export const CatalogSettingsRequest = z.object({
  merchandise: CatalogOfferingRequest,
  experiences: CatalogOfferingRequest,
  reason: Reason,
});
export type CatalogSettingsRequest = z.input<typeof CatalogSettingsRequest>;

export const PartnerSecret = z.object({ partnerId: z.string(), secret: z.string() });
export type PartnerSecret = z.infer<typeof PartnerSecret>;

export const CatalogSettingsReply = CatalogSettings.extend({
  auditId: z.string().nullable(),
  /** The secrets of partners created by this change: shown this once. */
  secrets: z.array(PartnerSecret),
});
export type CatalogSettingsReply = z.infer<typeof CatalogSettingsReply>;

export const PartnerSecretRequest = z.object({ reason: Reason });
export type PartnerSecretRequest = z.input<typeof PartnerSecretRequest>;

export const PartnerSecretReply = PartnerSecret.extend({ auditId: z.string() });
export type PartnerSecretReply = z.infer<typeof PartnerSecretReply>;

/** POST revoke: a partner no catalog names any more; its secret stops working, its orders stay. */
export const PartnerRevokeRequest = z.object({ reason: Reason });
export type PartnerRevokeRequest = z.input<typeof PartnerRevokeRequest>;

export const PartnerRevokeReply = z.object({ partnerId: z.string(), revokedAt: z.string(), auditId: z.string() });
export type PartnerRevokeReply = z.infer<typeof PartnerRevokeReply>;
