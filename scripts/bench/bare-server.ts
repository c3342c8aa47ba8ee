/**
 * The baseline: a bare Fastify route returning a small JSON object, in its own process like
 * the portal, so both pay the same for sharing the cores with the load generator.
 * Prints its port on stdout once listening.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ ok: true, name: 'baseline', points: 1250 }));
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(new URL(address).port);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
