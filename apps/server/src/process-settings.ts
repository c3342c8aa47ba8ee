/**
 * How the portal's Node process is started: `npm start` (scripts/start.ts, which execs
 * `node <these flags> apps/server/dist/main.js`) and the bench's servers use these; anyone starting
 * the server by hand in production should too. They cannot be set from inside a running process,
 * and nothing sets V8 flags at run time.
 *
 * One flag (decision 058): a young generation of 8 MB semi-spaces instead of V8's 16 MB. Under
 * load V8 grows the young generation to its maximum and keeps it while requests come: with 16 MB
 * the process held 188–198 MB after the bench's first load and 219–221 MB after the sign-ins
 * (issue 18's budget: under 200 MB); with 8 MB, ~37 MB less, for a scavenge every ~450 requests
 * instead of ~900. The flags of decisions 026, 029 and 036 stay gone (decision 058): `--max-old-space-size=96`
 * could stop the process on a big statement, `--max-semi-space-size=1` cost a scavenge every ~55
 * `GET user`s. A flag that a measurement shows the budget needs goes here, with why.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];
/**
 * Environment for the server process (see above); `npm start`, the bench's servers and
 * deploy/rewards@.service set it. Empty: no allocator setting (decision 058, 28 Nov). The sign-ins'
 * 19 MiB argon2id blocks come from the mimalloc built into the @node-rs/argon2 addon, not glibc's
 * malloc, and go back to the system when each run ends, so `MALLOC_*` variables cannot reach them
 * (MALLOC_ARENA_MAX=2 saves ~5 MB elsewhere, not needed).
 */
export const SERVER_ENV: Readonly<Record<string, string>> = {};
