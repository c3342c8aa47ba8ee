import { z } from 'zod';
import { ClientCatalogs } from './catalog.ts';
import { BundleList, Locale, LocaleOption, MediaLabel } from './locale.ts';

export const PasswordRules = z.object({
  minLength: z.number().int(),
  maxLength: z.number().int(),
  requireUpper: z.boolean(),
  requireLower: z.boolean(),
  requireDigit: z.boolean(),
  requireSymbol: z.boolean(),
  notUsername: z.boolean(),
});
export type PasswordRules = z.infer<typeof PasswordRules>;

export const SsoType = z.enum(['login_only', 'sso_only', 'login_and_sso']);
export type SsoType = z.infer<typeof SsoType>;
export const SsoLogoutType = z.enum(['login', 'sso']);
export type SsoLogoutType = z.infer<typeof SsoLogoutType>;

export const SsoConfig = z.object({
  clientSite: z.object({ name: z.string(), url: z.string() }),
  ssoType: SsoType,
  ssoLogoutType: SsoLogoutType,
  /**
   * Whether the sign-in page offers "Sign in with {clientSite.name}", a link to API_BASE +
   * ssoPaths.login (a provider is configured and ssoType is not login_only). Absent: no.
   */
  signIn: z.boolean().optional(),
  /** Whether the portal's own username and password form shows (false for sso_only with a provider). Absent: yes. */
  loginForm: z.boolean().optional(),
});
export type SsoConfig = z.infer<typeof SsoConfig>;

export const ClientBranding = z.object({
  clientName: z.string(),
  clientLogo: z.string(),
  brandColor: z.string(),
  activationFields: z.array(z.string()),
  mediaLabels: z.array(MediaLabel),
});
export type ClientBranding = z.infer<typeof ClientBranding>;

export const ClientCountry = z.object({ code: z.string(), name: z.string() });

/** Reply of GET viewConfig/client. bundleList holds the client's default locale bundle. */
export const ClientData = z.object({
  passwordRules: PasswordRules,
  locale: Locale,
  localeList: z.array(LocaleOption),
  bundleList: BundleList,
  clientBranding: ClientBranding,
  clientCountries: z.array(ClientCountry),
  ssoConfig: SsoConfig,
  privacyNoticeVersion: z.number().int(),
  /** Catalog settings (issue 5, section 3): the travel link of the redeem dropdown. */
  catalogs: ClientCatalogs.optional(),
  /** Minutes a session lives unused (SESSION_IDLE_MINUTES): the web warns before it ends. */
  sessionIdleMinutes: z.number().int().positive(),
});
export type ClientData = z.infer<typeof ClientData>;
