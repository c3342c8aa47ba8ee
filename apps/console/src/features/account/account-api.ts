import {
  consoleAccountPaths as paths,
  type PasskeyOptions,
  type StaffAccount,
  type StaffPasswordChangeReply,
  type StaffRecoveryCodesReply,
  type StaffTotpSecretReply,
} from '@rewards/contract/console';
import { startRegistration } from '@simplewebauthn/browser';
import { api } from '../../api/client.ts';

// Your account (decision 070). The second factors' changes may ask for a step-up first (the API client's dialog).

export const getAccount = () => api<StaffAccount>('GET', paths.account);
export const changePassword = (currentPassword: string, newPassword: string) =>
  api<StaffPasswordChangeReply>('PUT', paths.password, { body: { currentPassword, newPassword } });
export const renewRecoveryCodes = () => api<StaffRecoveryCodesReply>('POST', paths.recoveryCodes);
export const newTotpSecret = () => api<StaffTotpSecretReply>('POST', paths.totpSecret);
export const confirmTotp = (sealed: string, code: string) => api<StaffAccount>('POST', paths.totp, { body: { sealed, code } });
export const removePasskey = (passkeyId: string) => api<StaffAccount>('DELETE', paths.passkey(passkeyId));

export async function addPasskey(): Promise<StaffAccount> {
  const options = await api<PasskeyOptions>('POST', paths.passkeyOptions);
  // The options are the library's own JSON form, passed through as the server made them.
  const credential = await startRegistration({ optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'] });
  return api<StaffAccount>('POST', paths.passkeys, { body: { credential } });
}
