import {
  CONSOLE_API_BASE,
  STAFF_STEP_UP_PARAM,
  StaffStepUpOutcome,
  consolePaths,
  type StaffSignInMethods,
} from '@rewards/contract/console';
import { api } from './client.ts';

// The installation's staff OpenID provider (issue 20 §6, decision 068): what the sign-in page and
// the step-up dialog both need.

export const getSignInMethods = () => api<StaffSignInMethods>('GET', consolePaths.signInMethods);

/** Where the sign-in button goes: a navigation, the server redirects to the provider. */
export const providerSignInHref = `${CONSOLE_API_BASE}${consolePaths.signInOidc}`;

/**
 * The step-up dialog's "Sign in again at …": the provider authenticates the person again, and the
 * browser comes back to `returnTo` (this page) with `?stepUp=<outcome>` (decision 068, amended).
 */
export function providerStepUpHref(returnTo: string): string {
  return `${providerSignInHref}?${new URLSearchParams({ fresh: '1', return: returnTo })}`;
}

/** How a step-up at the provider ended, from the page's query (?stepUp=…); null when it did not just end. */
export function stepUpOutcomeOf(params: URLSearchParams): StaffStepUpOutcome | null {
  const outcome = StaffStepUpOutcome.safeParse(params.get(STAFF_STEP_UP_PARAM));
  return outcome.success ? outcome.data : null;
}
