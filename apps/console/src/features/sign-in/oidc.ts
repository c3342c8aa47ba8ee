import {
  CONSOLE_API_BASE,
  SecondFactor,
  STAFF_OIDC_FACTORS_PARAM,
  STAFF_OIDC_OUTCOME_PARAM,
  STAFF_STEP_UP_PARAM,
  StaffOidcOutcome,
  StaffStepUpOutcome,
  consolePaths,
  type StaffSignInMethods,
} from '@rewards/contract/console';
import { api } from '../../api/client.ts';

// Sign-in through the installation's OpenID provider (issue 20 §6, decision 068).

export const signInMethodsKey = ['signInMethods'] as const;
export const getSignInMethods = () => api<StaffSignInMethods>('GET', consolePaths.signInMethods);

/** Where the button goes: a navigation, the server redirects to the provider. */
export const providerSignInHref = `${CONSOLE_API_BASE}${consolePaths.signInOidc}`;

/** What the provider's callback said, from the sign-in page's query (?oidc=…&factors=…). */
export function oidcOutcomeOf(params: URLSearchParams): { outcome: StaffOidcOutcome; factors: SecondFactor[] } | null {
  const outcome = StaffOidcOutcome.safeParse(params.get(STAFF_OIDC_OUTCOME_PARAM));
  if (!outcome.success) return null;
  const factors = (params.get(STAFF_OIDC_FACTORS_PARAM) ?? '')
    .split(',')
    .map((name) => SecondFactor.safeParse(name))
    .flatMap((parsed) => (parsed.success ? [parsed.data] : []));
  return { outcome: outcome.data, factors };
}

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
