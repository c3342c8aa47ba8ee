import { SecondFactor, STAFF_OIDC_FACTORS_PARAM, STAFF_OIDC_OUTCOME_PARAM, StaffOidcOutcome } from '@rewards/contract/console';

// Sign-in through the installation's OpenID provider (issue 20 §6, decision 068).

export { getSignInMethods, providerSignInHref } from '../../api/staff-oidc.ts';

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
