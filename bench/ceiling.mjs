// The ceiling: a bare Fastify server answering, from memory, the very bytes the app answered for each
// endpoint. The runner sends `{ name, contentType, body (base64) }` over IPC before measuring.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const bodies = new Map();
app.get('/ceiling/:name', (request, reply) => {
  const b = bodies.get(request.params.name);
  if (!b) return reply.status(404).send();
  return reply.type(b.contentType).send(b.body);
});
process.on('message', (m) => {
  if (m?.name) {
    bodies.set(m.name, { contentType: m.contentType, body: Buffer.from(m.body, 'base64') });
    process.send?.({ ok: m.name });
  }
});
await app.listen({ port: Number(process.env.PORT ?? 3226), host: '127.0.0.1' });
process.send?.({ ready: true });
