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
 * - `--max-old-space-size=128` (MB): without a limit V8 lets the old generation fill with garbage
 *   up to ~100-160 MB before collecting it; with it, resident memory after the same 88,000
 *   requests was 164 MB instead of 263 MB. The live heap is ~35-50 MB, also with 16 concurrent
 *   10,000-entry statements (which survived, at about half their throughput). A load that needed
 *   more than 128 MB live would stop the process with an out-of-memory error: raise it here then.
 * - `--optimize-for-size`: V8 grows the old generation by smaller steps and compacts more; resident
 *   memory after the bench's fixed load 128-137 MB instead of 138-163 MB, for ~8% more CPU over
 *   that load (decision 029; drop it here if throughput matters more than the 150 MB budget).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1', '--max-old-space-size=128', '--optimize-for-size'];
/** Environment for the server process (none needed today; kept so both callers stay in step). */
export const SERVER_ENV: Readonly<Record<string, string>> = {};
