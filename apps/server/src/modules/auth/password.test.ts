import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.ts';

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
