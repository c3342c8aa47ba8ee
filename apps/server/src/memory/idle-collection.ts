import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Gives memory back when the server goes quiet after a busy period (docs/decisions/031).
 *
 * Under load V8 grows its heap and, after its own collections, keeps the freed pages pooled for
 * the next burst; by itself it only returns them much later, if ever. Once no request has been in
 * flight for `idleMs` (noticed between one and two `idleMs` after the last one), and resident
 * memory has grown by at least `minGrowthBytes` since the last collection (or since start), this runs V8's memory-reducing collection once (the one V8 runs
 * under memory pressure: full, compacting, and it releases the pooled pages).
 *
 * Never while a request is in flight; at most once per quiet period (the next one needs new
 * requests and new growth); its only timer is unref'd and armed only after a request finished, so
 * an idle process is not woken and does no work when nothing happened.
 */
export interface IdleCollectionOptions {
  /** Quiet time after the last request before collecting. */
  idleMs?: number;
  /** Growth of resident memory since the last collection below which collecting is not worth it. */
  minGrowthBytes?: number;
  /** The collection (tests pass a spy); default V8's memory-reducing full collection. */
  collect?: () => void;
  /** Resident memory in bytes (tests pass a stub); default process.memoryUsage.rss(). */
  residentBytes?: () => number;
}

export interface IdleCollection {
  /** Collections run so far. */
  readonly collections: number;
  stop(): void;
}

/** What is needed of the HTTP server (node's Server fits): its request event and the reply's end. */
interface Reply {
  on(event: 'close', listener: () => void): unknown;
}
type RequestListener = (request: unknown, reply: Reply) => void;
export interface RequestSource {
  on(event: 'request', listener: RequestListener): unknown;
  off(event: 'request', listener: RequestListener): unknown;
}

/**
 * Half a minute, not half a second: the memory-reducing collection also drops compiled code, so
 * the next burst runs cold. After 0.5 s idle every pause between bursts did that, and the bench's
 * cases (each after a few idle seconds) ran at 24-36% of the bare route instead of 44-65%
 * (decision 031, "Settled"). A portal quiet for 30 s loses little by warming up again.
 */
export const DEFAULT_IDLE_MS = 30_000;
export const DEFAULT_MIN_GROWTH_BYTES = 4 * 2 ** 20;

export function collectWhenIdle(server: RequestSource, options: IdleCollectionOptions = {}): IdleCollection {
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const minGrowth = options.minGrowthBytes ?? DEFAULT_MIN_GROWTH_BYTES;
  const collect = options.collect ?? memoryReducingCollection();
  const resident = options.residentBytes ?? (() => process.memoryUsage.rss());

  let inFlight = 0;
  /** Requests started since the last collection; the timer compares it to tell quiet from busy. */
  let started = 0;
  let startedAtArming = 0;
  let timer: NodeJS.Timeout | undefined;
  let residentAfterCollection = resident();
  let collections = 0;

  // One shared listener, no closure per request: this runs on every request.
  function finished(): void {
    inFlight--;
    if (inFlight === 0 && timer === undefined) arm();
  }
  function onRequest(_request: unknown, response: Reply): void {
    inFlight++;
    started++;
    response.on('close', finished);
  }
  function arm(): void {
    startedAtArming = started;
    timer = setTimeout(check, idleMs);
    timer.unref();
  }
  function check(): void {
    timer = undefined;
    // Busy: a request arrived since arming. Look again later if none is in flight now; otherwise
    // the last one to finish arms the timer.
    if (started !== startedAtArming) {
      if (inFlight === 0) arm();
      return;
    }
    if (inFlight > 0 || started === 0) return;
    started = 0;
    // Nothing grew worth returning (a trickle of requests): no collection, and no timer until the
    // next request.
    if (resident() - residentAfterCollection < minGrowth) return;
    collect();
    collections++;
    residentAfterCollection = resident();
  }
  function stop(): void {
    server.off('request', onRequest);
    if (timer) clearTimeout(timer);
    timer = undefined;
  }

  server.on('request', onRequest);
  return {
    get collections() {
      return collections;
    },
    stop,
  };
}

type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * V8's `gc` function, reached without starting node with --expose-gc (the flag only affects
 * contexts created after it is set, so the server's own global stays without `gc`). Flavour
 * `last-resort` is what V8 runs on a memory-pressure notification: repeated full, compacting
 * collections that also release the pages V8 keeps pooled. Looked up on first use, not at start.
 */
export function memoryReducingCollection(): () => void {
  let gc: Gc | undefined;
  return () => {
    if (!gc) {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as Gc;
    }
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  };
}
