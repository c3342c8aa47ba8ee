import { describe, expect, it } from 'vitest';
import { inTurn, PacedBody, SLICE_BYTES, writesWaiting } from './paced-body.ts';

/** Resolves in the check phase of the loop's current turn if called before it, else of the next. */
const afterImmediates = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Bytes that tell their own positions apart. */
function sample(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
  return bytes;
}

describe('big replies, a write per turn of the event loop (decision 094)', () => {
  it('runs one waiting write per turn, in the order they came, none at once', async () => {
    const ran: number[] = [];
    for (const n of [1, 2, 3]) inTurn(() => ran.push(n));
    expect(ran).toEqual([]);
    expect(writesWaiting()).toBe(3);
    // This turn's check phase: the lane's first write, then this callback (queued after it).
    await afterImmediates();
    expect(ran).toEqual([1]);
    await afterImmediates();
    expect(ran).toEqual([1, 2]);
    await afterImmediates();
    expect(ran).toEqual([1, 2, 3]);
    expect(writesWaiting()).toBe(0);
  });

  it('sends the same bytes in slices of at most SLICE_BYTES, each through the lane', async () => {
    const bytes = sample(3 * SLICE_BYTES + 1234);
    const slices: Buffer[] = [];
    for await (const slice of new PacedBody(bytes)) slices.push(slice as Buffer);
    expect(slices.map((s) => s.length)).toEqual([SLICE_BYTES, SLICE_BYTES, SLICE_BYTES, 1234]);
    expect(Buffer.concat(slices).equals(bytes)).toBe(true);
  });

  it('gives no turn to a body abandoned while its slice waited, and the others go on', async () => {
    const abandoned = new PacedBody(sample(2 * SLICE_BYTES));
    const received: Buffer[] = [];
    abandoned.on('data', (chunk: Buffer) => received.push(chunk));
    abandoned.on('error', () => {});
    // Its first slice now waits for a turn; the client goes away before it.
    abandoned.destroy();
    const after: number[] = [];
    inTurn(() => after.push(1));
    const kept = sample(SLICE_BYTES + 7);
    const slices: Buffer[] = [];
    for await (const slice of new PacedBody(kept)) slices.push(slice as Buffer);
    expect(received).toEqual([]);
    expect(after).toEqual([1]);
    expect(Buffer.concat(slices).equals(kept)).toBe(true);
    expect(writesWaiting()).toBe(0);
  });
});
