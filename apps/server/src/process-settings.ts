/**
 * How the portal's Node process is started (docs/decisions/026): `npm start` (package.json)
 * and the bench's servers use these; anyone starting `node apps/server/src/main.ts` by hand in
 * production should too. They cannot be set from inside a running process.
 *
 * - `--max-semi-space-size=1` (MB): V8's young generation otherwise grows to 16 MB per
 *   semi-space under the request load and keeps its pages (heapTotal 150 MB after the bench's
 *   load, 51-62 MB with this flag); the portal's short-lived garbage fits in 1 MB (heap after a
 *   forced GC is ~33 MB). The price is more frequent scavenges (decision 026).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1'];
/** Environment for the server process (none needed today; kept so both callers stay in step). */
export const SERVER_ENV: Readonly<Record<string, string>> = {};
