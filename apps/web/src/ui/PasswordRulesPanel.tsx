import { useEffect, useState } from 'react';
import type { PasswordRules } from '@rewards/contract';
import { checkPasswordRules, meetsPasswordRules } from '@rewards/contract/password-rules';
import { useI18n } from '../i18n/I18nContext.tsx';
import './password-rules.css';

interface PasswordRulesPanelProps {
  /** Id of the rules list: the password input names it in aria-describedby. */
  id: string;
  rules: PasswordRules;
  password: string;
  /** The participant's username, for the "not your username" rule. */
  username: string;
}

/**
 * A new password and its confirmation, checked before a form sends them with the rules the server
 * enforces: the translation keys of the messages, by field. Every screen that sets a password
 * (activation, reset, profile) asks this, so they word the same mistake the same way.
 */
export function newPasswordProblems(rules: PasswordRules | undefined, password: string, confirm: string, username: string) {
  const problems: { password?: string; confirm?: string } = {};
  if (!password) problems.password = 'account.validation.password';
  else if (rules && !meetsPasswordRules(rules, password, username)) problems.password = 'account.validation.rules';
  if (confirm !== password) problems.confirm = 'account.validation.confirm';
  return problems;
}

/** How long typing must pause before the summary is announced: a count per keystroke is noise. */
const ANNOUNCE_DELAY_MS = 1200;

/**
 * The client's password rules (spec section 1), each ticked as the password meets it, with the
 * same check the server enforces. Each rule says "met" or "not met" in words, not only by colour
 * or icon; a screen reader hears the list as the input's description and, after a pause in
 * typing, one polite summary ("5 of 7 password rules met").
 */
export function PasswordRulesPanel({ id, rules, password, username }: PasswordRulesPanelProps) {
  const { t } = useI18n();
  const results = checkPasswordRules(rules, password, username);
  const metCount = results.filter((r) => r.met).length;
  const summary = password ? t('passwordRules.summary', { met: metCount, total: results.length }) : '';
  const [announced, setAnnounced] = useState('');

  useEffect(() => {
    const timer = setTimeout(() => setAnnounced(summary), ANNOUNCE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [summary]);

  return (
    <div className="pw-rules">
      <div id={id}>
        <p className="pw-rules__heading">{t('passwordRules.heading')}</p>
        <ul className="pw-rules__list">
          {results.map((result) => (
            <li
              key={result.rule}
              className={`pw-rules__rule${result.met ? ' pw-rules__rule--met' : ''}`}
              data-rule={result.rule}
              data-met={result.met}
            >
              <span className="pw-rules__icon" aria-hidden="true" />
              <span>
                {t(`passwordRules.${result.rule}`, result.count === undefined ? undefined : { count: result.count })}
                <span className="ui-visually-hidden">{`: ${t(result.met ? 'passwordRules.met' : 'passwordRules.notMet')}`}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
      <p className="ui-visually-hidden" aria-live="polite">
        {announced}
      </p>
    </div>
  );
}
