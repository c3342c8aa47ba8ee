import type { AcknowledgeReply, ActivateRequest, BundleReply, ClientData, LoginRequest, UserData } from '@rewards/contract';
import { apiPaths } from '@rewards/contract/paths';
import type { ApiClient } from './client.ts';

// One typed function per call of this issue; the URLs live in the contract (paths.ts).

export const getClientData = (api: ApiClient) => api.request<ClientData>('GET', apiPaths.clientData);

export const getBundle = (api: ApiClient, locale: string) => api.request<BundleReply>('GET', apiPaths.bundle(locale));

export const login = (api: ApiClient, body: LoginRequest) => api.request<UserData>('POST', apiPaths.login, { body, sessionId: null });

/** Activation answers user data and a new session, like login (issue 7). */
export const activate = (api: ApiClient, body: ActivateRequest) =>
  api.request<UserData>('POST', apiPaths.activate, { body, sessionId: null });

/** Launch-as (issue 9): answers user data and a new session (adminAsUser), like login. */
export const launchAs = (api: ApiClient, token: string) =>
  api.request<UserData>('POST', apiPaths.launchAs, { body: { token }, sessionId: null });

export const logout = (api: ApiClient) => api.request<void>('GET', apiPaths.logout, { noContent: true, ignoreSessionTimeout: true });

export const getUser = (api: ApiClient, sessionId?: string) =>
  api.request<UserData>('GET', apiPaths.user, sessionId === undefined ? {} : { sessionId });

export const setUserLocale = (api: ApiClient, code: string, sessionId?: string) =>
  api.request<UserData>('POST', apiPaths.userLocale, {
    body: { locale: { code } },
    ...(sessionId === undefined ? {} : { sessionId }),
  });

export const acknowledgePrivacyNotice = (api: ApiClient) => api.request<AcknowledgeReply>('PUT', apiPaths.acknowledgePrivacyNotice);
