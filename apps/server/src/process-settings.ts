/**
 * How the portal's Node process is started: `npm start` (scripts/start.ts, which execs
 * `node <these flags> apps/server/dist/main.js`) and the bench's servers use these; anyone starting
 * the server by hand in production should too. They cannot be set from inside a running process,
 * and nothing sets V8 flags at run time.
 *
 * None are needed (decision 058): plain `node` meets issue 18's memory budget, resident memory
 * after each of the bench's loads under 200 MB and at most 1.25 × its level after the first load
 * (185–189 MB, ×1.02, in two runs). The flags of decisions 026, 029 and 036 are gone with the old
 * "150 MB two seconds after the load": `--max-old-space-size=96` could stop the process on a big
 * statement, and `--max-semi-space-size=1` (132–163 MB) costs a scavenge every ~55 `GET user`s.
 * A flag that a measurement shows the budget needs goes here, with one line saying why.
 */
export const SERVER_NODE_FLAGS: readonly string[] = [];
/** Environment for the server process (see above); `npm start` and the bench's servers set it. */
export const SERVER_ENV: Readonly<Record<string, string>> = {};
