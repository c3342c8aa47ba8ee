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
 *   150 MB with the flag below (decision 029). The live heap is
 *   ~35-50 MB, also with 16 concurrent 10,000-entry statements. A load that needed more than 96 MB
 *   live would stop the process with an out-of-memory error: raise it here then.
 * - `--optimize-for-size`: V8 grows the old generation by smaller steps, compacts more and keeps
 *   fewer background threads busy. It is what keeps resident memory after the bench's load under
 *   150 MB (131 MB against 146-173 MB without it, whatever the old-space cap: 64, 96 and 128 were
 *   tried). Its price in throughput was 25-35% in one pair of quiet runs and nothing in the next
 *   (decision 029, "Settled"): drop it here if throughput matters more than the memory budget.
 *
 * What the process keeps between bursts is lowered further at run time, not by flags: a
 * memory-reducing collection once requests stop (src/memory/idle-collection.ts), and argon2id
 * runs limited to one per core (decision 031).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1', '--max-old-space-size=96', '--optimize-for-size'];
/** Environment for the server process (none needed today; kept so both callers stay in step). */
export const SERVER_ENV: Readonly<Record<string, string>> = {};
