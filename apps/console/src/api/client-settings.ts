import {
  consoleClientPaths as paths,
  type BrandingReply,
  type BrandingRequest,
  type BrandingSettings,
  type LocaleSettings,
  type LocaleSettingsReply,
  type LocaleSettingsRequest,
  type ProgramSettings,
  type ProgramSettingsReply,
  type ProgramSettingsRequest,
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
