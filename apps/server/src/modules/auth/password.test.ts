import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  currentPasswordHashCost,
  decoyPasswordHash,
  hashPassword,
  OWASP_MINIMUM,
  TEST_ONLY_MINIMUM,
  usePasswordHashCost,
  verifyPassword,
} from './password.ts';

// These test hashing itself, so at the production cost; the worker's (test/password-hash-cost.ts) is restored after.
let workerCost = currentPasswordHashCost();
beforeAll(() => {
  workerCost = currentPasswordHashCost();
  usePasswordHashCost(OWASP_MINIMUM);
});
afterAll(() => usePasswordHashCost(workerCost));

describe('password hashing, no more at once than there are cores', () => {
  it('answers every one of many sign-ins at once, each with its own verdict', async () => {
    const stored = await hashPassword('Rewards-2026!');
    const attempts = Array.from({ length: 2 * availableParallelism() + 1 }, (_, i) => (i % 2 === 0 ? 'Rewards-2026!' : `wrong-${i}`));
    const verdicts = await Promise.all(attempts.map((password) => verifyPassword(stored, password)));
    expect(verdicts).toEqual(attempts.map((password) => password === 'Rewards-2026!'));
  });

  it('keeps going after a failed run', async () => {
    await expect(verifyPassword('not-a-hash', 'x')).rejects.toThrow();
    const again = await Promise.all([1, 2, 3].map(() => hashPassword('another-password')));
    expect(await verifyPassword(again[2]!, 'another-password')).toBe(true);
  });
});

describe('password hashing cost (decision 088)', () => {
  it("hashes with argon2id at OWASP's minimum: 19 MiB, 2 passes, one lane", async () => {
    expect(await hashPassword('Rewards-2026!')).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await decoyPasswordHash()).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('hashes at the configured cost, and a hash of either cost keeps verifying after the cost changes', async () => {
    const owasp = await hashPassword('Rewards-2026!');
    usePasswordHashCost(TEST_ONLY_MINIMUM);
    try {
      const cheap = await hashPassword('Rewards-2026!');
      expect(cheap).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
      // The decoy follows the cost, so an unknown username costs what a known one does.
      expect(await decoyPasswordHash()).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
      expect([await verifyPassword(owasp, 'Rewards-2026!'), await verifyPassword(owasp, 'wrong')]).toEqual([true, false]);
      usePasswordHashCost(OWASP_MINIMUM);
      expect([await verifyPassword(cheap, 'Rewards-2026!'), await verifyPassword(cheap, 'wrong')]).toEqual([true, false]);
    } finally {
      usePasswordHashCost(OWASP_MINIMUM);
    }
  });
});
