import type {
  EnrolmentPasswordReply,
  EnrolmentTotpReply,
  EnrolmentView,
  PasskeyOptions,
  StaffMe,
  StaffSignInReply,
  ConsoleClient,
} from '@rewards/contract/console';
import { consolePaths, ENROLMENT_TOKEN_HEADER } from '@rewards/contract/console';
import { consoleStaffPaths, type StepUpReply } from '@rewards/contract/console-staff';
import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { api } from './client.ts';

// Sign-in, enrolment, step-up and who is signed in (decision 046's API, decision 050's app).

export const getMe = () => api<StaffMe>('GET', consolePaths.me, { quiet401: true });
export const getClients = () => api<ConsoleClient[]>('GET', consolePaths.clients);
export const signOut = () => api<void>('POST', consolePaths.signOut);

export const signIn = (email: string, password: string) =>
  api<StaffSignInReply>('POST', consolePaths.signIn, { body: { email, password } });
export const signInTotp = (code: string) => api<StaffMe>('POST', consolePaths.signInTotp, { body: { code } });
export const signInRecoveryCode = (code: string) => api<StaffMe>('POST', consolePaths.signInRecoveryCode, { body: { code } });
export async function signInPasskey(): Promise<StaffMe> {
  const options = await api<PasskeyOptions>('POST', consolePaths.signInPasskeyOptions);
  // The options are the library's own JSON form, passed through as the server made them.
  const credential = await startAuthentication({
    optionsJSON: options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'],
  });
  return api<StaffMe>('POST', consolePaths.signInPasskey, { body: { credential } });
}

const enrolmentHeaders = (token: string) => ({ [ENROLMENT_TOKEN_HEADER]: token });
export const getEnrolment = (token: string) => api<EnrolmentView>('GET', consolePaths.enrolment, { headers: enrolmentHeaders(token) });
export const setEnrolmentPassword = (token: string, password: string) =>
  api<EnrolmentPasswordReply>('POST', consolePaths.enrolmentPassword, { headers: enrolmentHeaders(token), body: { password } });
export const confirmEnrolmentTotp = (token: string, code: string) =>
  api<EnrolmentTotpReply>('POST', consolePaths.enrolmentTotp, { headers: enrolmentHeaders(token), body: { code } });
export async function confirmEnrolmentPasskey(token: string): Promise<EnrolmentTotpReply> {
  const options = await api<PasskeyOptions>('POST', consolePaths.enrolmentPasskeyOptions, { headers: enrolmentHeaders(token) });
  const credential = await startRegistration({ optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'] });
  return api<EnrolmentTotpReply>('POST', consolePaths.enrolmentPasskey, { headers: enrolmentHeaders(token), body: { credential } });
}

export const stepUpTotp = (code: string) => api<StepUpReply>('POST', consoleStaffPaths.stepUpTotp, { body: { code } });
export const stepUpRecoveryCode = (code: string) => api<StepUpReply>('POST', consoleStaffPaths.stepUpRecoveryCode, { body: { code } });
export async function stepUpPasskey(): Promise<StepUpReply> {
  const options = await api<PasskeyOptions>('POST', consoleStaffPaths.stepUpPasskeyOptions);
  const credential = await startAuthentication({
    optionsJSON: options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'],
  });
  return api<StepUpReply>('POST', consoleStaffPaths.stepUpPasskey, { body: { credential } });
}
