import { checkPasswordRules, type PasswordRuleName } from '@rewards/contract/password-rules';
import type { PasswordRules } from '@rewards/contract';
import { t, type MessageKey } from '../i18n/t.ts';

const RULE_TEXT: Record<PasswordRuleName, MessageKey> = {
  minLength: 'enrol.rule.minLength',
  maxLength: 'enrol.rule.maxLength',
  upper: 'enrol.rule.upper',
  lower: 'enrol.rule.lower',
  digit: 'enrol.rule.digit',
  symbol: 'enrol.rule.symbol',
  notUsername: 'enrol.rule.notUsername',
};

/** The server's "not the username" compares the address's part before the @ when it has 4+ characters. */
const ruleName = (email: string) => {
  const local = email.split('@')[0] ?? '';
  return [...local].length >= 4 ? local : '';
};

/** How a new staff password fares against the rules, as the server will check it (enrolment, your account). */
export function staffPasswordResults(rules: PasswordRules, password: string, email: string) {
  return checkPasswordRules(rules, password, ruleName(email));
}

/** The rules under a new password's field, each marked met or not as the person types. */
export function PasswordRulesList({ id, results }: { id: string; results: ReturnType<typeof staffPasswordResults> }) {
  return (
    <ul id={id} className="rules">
      {results.map((r) => (
        <li key={r.rule} className={r.met ? 'rules__met' : undefined}>
          <span aria-hidden="true">{r.met ? '✓' : '·'}</span> {t(RULE_TEXT[r.rule], { count: r.count ?? 0 })}
          <span className="visually-hidden">{r.met ? t('enrol.ruleMet') : t('enrol.ruleNotMet')}</span>
        </li>
      ))}
    </ul>
  );
}
