/**
 * How the portal's Node process is started (docs/decisions/026): `npm start` (package.json)
 * and the bench's servers use these; anyone starting `node apps/server/src/main.ts` by hand in
 * production should too. Neither can be set from inside a running process.
 *
 * - `--max-semi-space-size=1` (MB): V8's young generation otherwise grows to 16 MB per
 *   semi-space under the request load and keeps its pages; the portal's short-lived garbage fits
 *   in 1 MB (heap after a forced GC is ~33 MB), and resident memory after the bench's load fell
 *   by ~70 MB.
 * - `MALLOC_ARENA_MAX=2`: argon2id takes 19 MiB per hash on libuv's worker threads, and glibc
 *   gives each thread its own arena that keeps the freed memory; two arenas keep less.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1'];
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
