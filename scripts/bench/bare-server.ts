/**
 * The baseline: a bare Fastify route returning a small JSON object, in its own process like
 * the portal, so both pay the same for sharing the cores with the load generator.
 * Prints its port on stdout once listening.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ ok: true, name: 'baseline', points: 1250 }));
// A reference, not the baseline: the same framework sending a ready body of n bytes, as the
// cached client data and bundles are sent; what the bytes alone cost on loopback (decision 016).
const bodies = new Map<number, Buffer>();
app.get<{ Params: { n: string } }>('/bare/bytes/:n', async (request, reply) => {
  const size = Math.min(Math.max(Number(request.params.n) || 0, 16), 10_000_000);
  let body = bodies.get(size);
  if (!body) bodies.set(size, (body = Buffer.from(JSON.stringify({ pad: 'x'.repeat(size - 10) }))));
  return reply.type('application/json; charset=utf-8').send(body);
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(new URL(address).port);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
