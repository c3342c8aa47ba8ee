import {
  CONSOLE_API_BASE,
  SecondFactor,
  STAFF_OIDC_FACTORS_PARAM,
  STAFF_OIDC_OUTCOME_PARAM,
  StaffOidcOutcome,
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
