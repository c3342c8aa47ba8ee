import {
  consoleClientPaths as paths,
  type BrandingReply,
  type BrandingRequest,
  type BrandingSettings,
  type CatalogSettings,
  type CatalogSettingsReply,
  type CatalogSettingsRequest,
  type LocaleSettings,
  type LocaleSettingsReply,
  type LocaleSettingsRequest,
  type ProgramSettings,
  type ProgramSettingsReply,
  type ProgramSettingsRequest,
  type PartnerRevokeReply,
  PartnerSecretReply,
  type SsoSettings,
  type SsoSettingsReply,
  type SsoSettingsRequest,
} from '@rewards/contract/console-clients';
import { api } from './client.ts';

// A client's settings of issue 20 §3 (decision 065): every role reads, program managers and owners change.
export const getBranding = (clientId: string) => api<BrandingSettings>('GET', paths.brandingSettings(clientId));
export const putBranding = (clientId: string, body: BrandingRequest) =>
  api<BrandingReply>('PUT', paths.brandingSettings(clientId), { body });
export const getLocaleSettings = (clientId: string) => api<LocaleSettings>('GET', paths.localeSettings(clientId));
export const putLocaleSettings = (clientId: string, body: LocaleSettingsRequest) =>
  api<LocaleSettingsReply>('PUT', paths.localeSettings(clientId), { body });
export const getProgramSettings = (clientId: string) => api<ProgramSettings>('GET', paths.programSettings(clientId));
export const putProgramSettings = (clientId: string, body: ProgramSettingsRequest) =>
  api<ProgramSettingsReply>('PUT', paths.programSettings(clientId), { body });

// Part H: single sign-on (the secret write-only), catalogs and partner secrets (shown once).
export const getSsoSettings = (clientId: string) => api<SsoSettings>('GET', paths.ssoSettings(clientId));
export const putSsoSettings = (clientId: string, body: SsoSettingsRequest) =>
  api<SsoSettingsReply>('PUT', paths.ssoSettings(clientId), { body });
export const getCatalogSettings = (clientId: string) => api<CatalogSettings>('GET', paths.catalogSettings(clientId));
export const putCatalogSettings = (clientId: string, body: CatalogSettingsRequest) =>
  api<CatalogSettingsReply>('PUT', paths.catalogSettings(clientId), { body });
export const rotatePartnerSecret = (clientId: string, partnerId: string, reason: string) =>
  api<PartnerSecretReply>('POST', paths.partnerSecret(clientId, partnerId), { body: { reason } });
export const revokePartner = (clientId: string, partnerId: string, reason: string) =>
  api<PartnerRevokeReply>('POST', paths.partnerRevoke(clientId, partnerId), { body: { reason } });
