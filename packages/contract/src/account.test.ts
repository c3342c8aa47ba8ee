import { describe, expect, it } from 'vitest';
import { ActivateRequest, ForgotPasswordRequest, ForgotUsernameRequest, SavePasswordRequest } from './account.ts';

describe('account lifecycle requests', () => {
  it('trims the facts and a picked username, refusing spaces inside it', () => {
    const parsed = ActivateRequest.parse({
      characteristics: { accountNumber: ' 1000004 ', lastName: 'Pending' },
      password: 'p',
      username: ' pat.p ',
    });
    expect(parsed).toEqual({ characteristics: { accountNumber: '1000004', lastName: 'Pending' }, password: 'p', username: 'pat.p' });
    for (const username of ['pat p', 'ab', 'x'.repeat(101), 'tab\there']) {
      expect(ActivateRequest.safeParse({ characteristics: {}, password: 'p', username }).success, username).toBe(false);
    }
    expect(ActivateRequest.safeParse({ characteristics: { lastName: ' ' }, password: 'p' }).success).toBe(false);
  });

  it('needs a well-formed e-mail address and a bounded username', () => {
    expect(ForgotUsernameRequest.parse({ emailAddress: ' demo@example.com ' })).toEqual({ emailAddress: 'demo@example.com' });
    expect(ForgotUsernameRequest.safeParse({ emailAddress: 'demo' }).success).toBe(false);
    expect(ForgotPasswordRequest.safeParse({ emailAddress: 'demo@example.com', userName: '' }).success).toBe(false);
  });

  it('takes a reset guid of at least 128 bits in base64url only', () => {
    const guid = 'A'.repeat(43);
    expect(SavePasswordRequest.safeParse({ password: 'p', passwordGuid: guid }).success).toBe(true);
    for (const passwordGuid of ['A'.repeat(21), `${guid}=`, `${guid.slice(1)}/`]) {
      expect(SavePasswordRequest.safeParse({ password: 'p', passwordGuid }).success, passwordGuid).toBe(false);
    }
  });
});
