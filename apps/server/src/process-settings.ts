/**
 * How the portal's Node process is started (docs/decisions/026 and 029): `npm start`
 * (scripts/start.ts, which execs `node <these flags> apps/server/dist/main.js`) and the bench's
 * servers use these; anyone starting the server by hand in production should too. They cannot be
 * set from inside a running process.
 *
 * - `--max-semi-space-size=1` (MB): V8's young generation otherwise grows to 16 MB per
 *   semi-space under the request load and keeps its pages (heapTotal 150 MB after the bench's
 *   load, 51-62 MB with this flag); the portal's short-lived garbage fits in 1 MB (heap after a
 *   forced GC is ~33 MB). The price is more frequent scavenges (decision 026).
 * - `--max-old-space-size=96` (MB): without a limit V8 lets the old generation fill with garbage
 *   up to ~100-160 MB before collecting it; with 128, resident memory after the same 88,000
 *   requests was 164 MB instead of 263 MB (decision 026), and 96 brought the bench's figure under
 *   150 MB with `--optimize-for-size` then (decision 029). The live heap is
 *   ~35-50 MB, also with 16 concurrent 10,000-entry statements. A load that needed more than 96 MB
 *   live would stop the process with an out-of-memory error: raise it here then.
 * - No `--optimize-for-size` any more (decision 036). It had kept resident memory after the
 *   bench's load under 150 MB (decision 029), but it cost 12-26% of the CPU of every request
 *   (A/B on one tree: client data 53 → 39, GET user 49 → 42.5, statement 65.5 → 54 µs per
 *   request), and most of the memory it saved was not V8's: without it the heap is the same size
 *   and the difference is in malloc's arenas, which MALLOC_ARENA_MAX below limits instead.
 * - `MALLOC_ARENA_MAX=2` (environment, read by glibc at start): every thread that mallocs under
 *   contention — V8's compiler and GC helpers, libuv's pool (argon2id, compression) — would get
 *   an arena of its own, kept when the thread goes quiet. Two arenas on a two-core machine: 129
 *   and 134 MB two seconds after the load, against 138 and 143 MB without the limit (decision 036).
 *   Decision 029 had found the limit useless, when four argon2id hashes ran at once.
 *
 * What the process keeps between bursts is lowered further at run time, not by flags: a
 * memory-reducing collection once requests stop (src/memory/idle-collection.ts), and argon2id
 * runs limited to one per core (decision 031).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1', '--max-old-space-size=96'];
/** Environment for the server process (see above); `npm start` and the bench's servers set it. */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
