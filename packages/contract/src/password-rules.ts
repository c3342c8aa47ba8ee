import type { PasswordRules } from './client.ts';

export type PasswordRuleName = 'minLength' | 'maxLength' | 'upper' | 'lower' | 'digit' | 'symbol' | 'notUsername';

export interface PasswordRuleResult {
  rule: PasswordRuleName;
  met: boolean;
  /** The number the rule's text shows (the lengths). */
  count?: number;
}

/**
 * The client's password rules checked against a password: one result per rule that applies, in
 * the order the panel lists them. The server enforces with it and the rules panel ticks with it,
 * so the two can never disagree. An empty password meets no rule (the panel starts unticked).
 * Lengths count characters (code points), not UTF-16 units; letters and digits of any script count.
 */
export function checkPasswordRules(rules: PasswordRules, password: string, username: string): PasswordRuleResult[] {
  const empty = password.length === 0;
  const length = [...password].length;
  const name = username.trim().toLowerCase();
  const results: PasswordRuleResult[] = [
    { rule: 'minLength', met: !empty && length >= rules.minLength, count: rules.minLength },
    { rule: 'maxLength', met: !empty && length <= rules.maxLength, count: rules.maxLength },
  ];
  if (rules.requireUpper) results.push({ rule: 'upper', met: /\p{Lu}/u.test(password) });
  if (rules.requireLower) results.push({ rule: 'lower', met: /\p{Ll}/u.test(password) });
  if (rules.requireDigit) results.push({ rule: 'digit', met: /\p{Nd}/u.test(password) });
  if (rules.requireSymbol) results.push({ rule: 'symbol', met: /[^\p{L}\p{N}\s]/u.test(password) });
  if (rules.notUsername) results.push({ rule: 'notUsername', met: !empty && (name === '' || !password.toLowerCase().includes(name)) });
  return results;
}

/** True when the password meets every rule. */
export function meetsPasswordRules(rules: PasswordRules, password: string, username: string): boolean {
  return checkPasswordRules(rules, password, username).every((result) => result.met);
}
