import { describe, expect, it } from 'vitest';
import { ChangePasswordRequest, checkPasswordRules, meetsPasswordRules } from './index.ts';
import type { PasswordRules } from './index.ts';

const all: PasswordRules = {
  minLength: 10,
  maxLength: 20,
  requireUpper: true,
  requireLower: true,
  requireDigit: true,
  requireSymbol: true,
  notUsername: true,
};
const metOf = (password: string, rules = all, username = 'dana') =>
  Object.fromEntries(checkPasswordRules(rules, password, username).map((r) => [r.rule, r.met]));

describe('the password rules check shared by server and rules panel', () => {
  it('lists every rule that applies, in the panel order, with the lengths to show', () => {
    expect(checkPasswordRules(all, '', 'dana')).toEqual([
      { rule: 'minLength', met: false, count: 10 },
      { rule: 'maxLength', met: false, count: 20 },
      { rule: 'upper', met: false },
      { rule: 'lower', met: false },
      { rule: 'digit', met: false },
      { rule: 'symbol', met: false },
      { rule: 'notUsername', met: false },
    ]);
  });

  it('leaves out the rules a client does not ask for', () => {
    const lenient = { ...all, requireUpper: false, requireSymbol: false, notUsername: false };
    expect(checkPasswordRules(lenient, 'x', 'dana').map((r) => r.rule)).toEqual(['minLength', 'maxLength', 'lower', 'digit']);
  });

  it('ticks each rule as it is met', () => {
    expect(metOf('a')).toEqual({
      minLength: false,
      maxLength: true,
      upper: false,
      lower: true,
      digit: false,
      symbol: false,
      notUsername: true,
    });
    expect(metOf('aB3!')).toMatchObject({ upper: true, lower: true, digit: true, symbol: true, minLength: false });
    expect(metOf('Garden-Path-42')).toEqual({
      minLength: true,
      maxLength: true,
      upper: true,
      lower: true,
      digit: true,
      symbol: true,
      notUsername: true,
    });
    expect(meetsPasswordRules(all, 'Garden-Path-42', 'dana')).toBe(true);
  });

  it('counts characters, not UTF-16 units, and letters of any script', () => {
    expect(metOf('Éé1!ñ😀😀😀😀😀')).toMatchObject({ minLength: true, upper: true, lower: true });
    expect(metOf('Ab1!'.padEnd(21, 'x'))).toMatchObject({ maxLength: false });
  });

  it('refuses the username inside the password, whatever the case', () => {
    expect(metOf('My-DANA-pass-1')).toMatchObject({ notUsername: false });
    expect(metOf('My-dan-pass-1')).toMatchObject({ notUsername: true });
  });

  it('bounds the change-password request like sign-in', () => {
    expect(ChangePasswordRequest.safeParse({ oldPassword: 'a', newPassword: 'b' }).success).toBe(true);
    expect(ChangePasswordRequest.safeParse({ oldPassword: '', newPassword: 'b' }).success).toBe(false);
    expect(ChangePasswordRequest.safeParse({ oldPassword: 'a', newPassword: 'b'.repeat(201) }).success).toBe(false);
  });
});
