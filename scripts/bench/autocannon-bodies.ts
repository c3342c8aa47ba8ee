/**
 * Imported for its effect by every script that loads the portal with autocannon: the load
 * generator stops keeping reply bodies.
 *
 * autocannon appends every body chunk to a string (`body += chunk`, a UTF-8 decode of every byte)
 * for options the bench never uses (expectBody, verifyBody, a request's onResponse). On this
 * machine the load generator shares two cores with the portal, so that decoding is CPU taken from
 * the server under test, and it costs more for the replies the bench most wants to compare: per
 * reply 18 µs for 6.4 kB of ASCII, 32–37 µs for 25 kB of JSON, 45 µs for 6.4 kB of brotli
 * (decision 016). Every case and the baseline are measured alike; byte counts are unaffected
 * (autocannon counts them apart).
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// autocannon 9 has no exports map; the queue is where each reply's body is kept.
const queue = require('autocannon/lib/pipelinedRequestsQueue.js') as { prototype: { addBody(data: Buffer): void } };
queue.prototype.addBody = () => {};
