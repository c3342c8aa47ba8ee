import { randomBytes } from 'node:crypto';

/** Crockford's base32: its letters sort in ASCII order, so ids sort by time. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

let lastMs = -1;
let lastRandom: number[] = [];

/**
 * A ULID (48 bits of milliseconds, 80 random bits), monotonic within this process: two ids made in
 * one millisecond still sort in the order they were made (the random part counts up), so the
 * events of one transaction keep their order per participant.
 */
export function ulid(nowMs: number = Date.now()): string {
  if (nowMs <= lastMs) {
    // Same (or an earlier, a clock step back) millisecond: the last random part plus one.
    let i = lastRandom.length - 1;
    while (i >= 0 && lastRandom[i] === 31) lastRandom[i--] = 0;
    if (i >= 0) lastRandom[i] = (lastRandom[i] ?? 0) + 1;
    nowMs = lastMs;
  } else {
    const bytes = randomBytes(16);
    // 16 symbols of 5 bits, the first one's top bit clear so counting up never overflows in practice.
    lastRandom = Array.from({ length: 16 }, (_, k) => (bytes[k] ?? 0) % (k === 0 ? 16 : 32));
    lastMs = nowMs;
  }
  return timePart(nowMs) + lastRandom.map((v) => ALPHABET[v]).join('');
}

/** The first 10 symbols of a ULID: its milliseconds. */
function timePart(ms: number): string {
  let time = '';
  let t = ms;
  for (let k = 0; k < 10; k++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time;
}

/** Below every id of this prefix made at `ms` or later: ids of rows made before `ms` sort under it. */
export const idsMadeBefore = (prefix: 'msg_' | 'whd_', ms: number): string => `${prefix}${timePart(ms)}`;

export const eventId = (nowMs?: number): string => `msg_${ulid(nowMs)}`;
export const deliveryId = (nowMs?: number): string => `whd_${ulid(nowMs)}`;
export const endpointId = (): string => `we_${ulid()}`;
