import type { QueryKey } from '@tanstack/react-query';
import type { BrandingRequest } from '@rewards/contract/console-clients';
import {
  putBranding,
  putCatalogSettings,
  putLocaleSettings,
  putProgramSettings,
  putSsoSettings,
  revokePartner,
  rotatePartnerSecret,
} from '../../api/client-settings.ts';
import { putExpirySettings } from '../../api/expiry.ts';
import { putSettings } from '../../api/participants.ts';
import { useWrite } from '../../api/mutations.ts';
import { queryKeys } from '../../api/query-keys.ts';

// A client's settings: each save makes its own section's read stale.

/** A section's save: the body sent with PUT, then the section's key read again. */
const saveOf =
  <TBody, TReply>(put: (clientId: string, body: TBody) => Promise<TReply>, key: (clientId: string) => QueryKey) =>
  (clientId: string) =>
    useWrite(
      (body: TBody) => put(clientId, body),
      () => [key(clientId)],
    );

export const useSaveLimits = saveOf(putSettings, queryKeys.settings.limits);
export const useSaveLocales = saveOf(putLocaleSettings, queryKeys.settings.locales);
export const useSaveProgram = saveOf(putProgramSettings, queryKeys.settings.program);
export const useSaveSso = saveOf(putSsoSettings, queryKeys.settings.sso);
export const useSaveExpiry = saveOf(putExpirySettings, queryKeys.settings.expiry);
export const useSaveCatalogs = saveOf(putCatalogSettings, queryKeys.settings.catalogs);
/** The clients list names the client too. */
export const useSaveBranding = (clientId: string) =>
  useWrite(
    (body: BrandingRequest) => putBranding(clientId, body),
    () => [queryKeys.settings.branding(clientId), queryKeys.clients()],
  );
export const useRevokePartner = (clientId: string) =>
  useWrite(
    ({ partnerId, reason }: { partnerId: string; reason: string }) => revokePartner(clientId, partnerId, reason),
    () => [queryKeys.settings.catalogs(clientId)],
  );
/** The partner list does not change: the new secret is shown once, from the reply. */
export const useRotatePartnerSecret = (clientId: string) =>
  useWrite(({ partnerId, reason }: { partnerId: string; reason: string }) => rotatePartnerSecret(clientId, partnerId, reason));
