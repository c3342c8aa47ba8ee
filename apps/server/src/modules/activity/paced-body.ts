import { Readable } from 'node:stream';

/**
 * Big replies wait for their turn of the event loop: one big write per turn for all of them
 * together, after the turn's other I/O (decision 094). Once a statement is built and compressed
 * (once per ledger version), serving it is writing its bytes: on loopback a socket write runs the
 * receiver's side of TCP in the writer's thread, ~50 µs for a 10,000-entry statement's 78 kB, and
 * four of them read in one turn were written before the next turn read anyone else's request.
 * Through this lane a turn holds at most one such write, whatever the number of big replies
 * waiting; on an idle loop turns are short and they go at full speed.
 */

/** The most of big replies' bytes one turn writes: a compressed 10,000-entry statement (78 kB) goes whole. */
export const SLICE_BYTES = 128 * 1024;

/** Smaller bodies are written at once, as any reply: a turn of waiting would cost more than it spares. */
export const PACED_FROM_BYTES = 32 * 1024;

/** Writes waiting for a turn, first come first served. */
const waiting: (() => void)[] = [];
let turnScheduled = false;
/** Writes that have had their turn since the process started (tests). */
let taken = 0;

/**
 * setImmediate's callbacks run in the check phase, after the turn's poll phase, where other
 * requests are read and answered; one scheduled from inside a callback runs in the next turn, so
 * each turn gives one write.
 */
function scheduleTurn(): void {
  if (turnScheduled || waiting.length === 0) return;
  turnScheduled = true;
  setImmediate(() => {
    turnScheduled = false;
    const write = waiting.shift();
    scheduleTurn();
    if (write) {
      taken++;
      write();
    }
  });
}

/** Runs `write` in a turn of its own, after the writes already waiting. */
export function inTurn(write: () => void): void {
  waiting.push(write);
  scheduleTurn();
}

/**
 * `bytes` for Fastify's reply: a Buffer up to SLICE_BYTES, written whole in its turn; above, a
 * stream of SLICE_BYTES slices, one turn each (a statement sent uncompressed, ~1 MB, is eight).
 */
export class PacedBody extends Readable {
  #offset = 0;
  readonly #bytes: Buffer;

  constructor(bytes: Buffer) {
    super({ highWaterMark: SLICE_BYTES });
    this.#bytes = bytes;
  }

  override _read(): void {
    inTurn(() => {
      // The reply was abandoned (the client went away) while its slice waited.
      if (this.destroyed) return;
      const end = Math.min(this.#offset + SLICE_BYTES, this.#bytes.length);
      const slice = this.#bytes.subarray(this.#offset, end);
      this.#offset = end;
      this.push(slice);
      if (end === this.#bytes.length) this.push(null);
    });
  }
}

/** Writes waiting for a turn (tests). */
export function writesWaiting(): number {
  return waiting.length;
}

/** Writes that have had their turn so far (tests). */
export function writesTaken(): number {
  return taken;
}
