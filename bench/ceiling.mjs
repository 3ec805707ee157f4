// Two ceilings, each in its own process.
// Bytes (default): a bare Fastify server answering, from memory, the very bytes the app answered for each
// endpoint. The runner sends `{ name, contentType, body (base64) }` over IPC before measuring.
// Primary key (PK_DATABASE=pglite|postgres): a bare Fastify server answering GET /row/:id with one row
// read by primary key through the app's database driver (PGlite in this process, on its own data
// directory PK_DATA_DIR; or a node-postgres Pool of the app's size on DATABASE_URL, search_path PK_SCHEMA)
// from its own users-like table of PK_ROWS rows. It sends `{ ready, ids }` when the table is filled.
// Sent `{ bodies: [text] }`, it stores them as rows of their own and answers `{ bodies: ids }` for
// GET /body/:id (the same-bytes ceiling of the cold rows).
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const mode = process.env.PK_DATABASE;

if (!mode) {
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
} else {
  const rows = Number(process.env.PK_ROWS ?? 2500);
  let query;
  let close;
  if (mode === 'postgres') {
    const { default: pg } = await import('pg');
    const schema = process.env.PK_SCHEMA;
    const pool = new pg.Pool({
      connectionString: process.env.DATABASE_URL,
      max: 10,
      options: schema ? `-c search_path=${schema}` : undefined,
    });
    pool.on('error', () => undefined);
    query = (text, params) => pool.query(text, params);
    close = () => pool.end();
  } else {
    const { PGlite } = await import('@electric-sql/pglite');
    const client = new PGlite(process.env.PK_DATA_DIR ?? 'memory://');
    await client.waitReady;
    query = (text, params) => client.query(text, params);
    close = () => client.close();
  }
  // The columns the session lookup reads, plus a few of a user's others.
  await query(`drop table if exists pk_users`);
  await query(`create table pk_users (
    id uuid primary key, user_type text not null, official_email text not null, name text not null,
    phone_number text not null, verified boolean not null, company_name text, created_at timestamptz not null)`);
  await query(
    `insert into pk_users
     select gen_random_uuid(), case when i % 5 = 0 then 'lawyer' else 'company' end, 'user' || i || '@pk.test',
            'User ' || i, '23480' || (10000000 + i), i % 3 = 0, 'Company ' || i || ' Ltd', now() - i * interval '1 hour'
     from generate_series(1, $1::int) as i`,
    [rows],
  );
  await query(`analyze pk_users`);
  const ids = (await query(`select id from pk_users`)).rows.map((r) => r.id);
  app.get('/row/:id', async (request, reply) => {
    if (!/^[0-9a-f-]{36}$/i.test(request.params.id)) return reply.status(400).send({ message: 'bad id' });
    const res = await query(
      'select id, user_type, official_email, name, phone_number, verified, company_name, created_at from pk_users where id = $1',
      [request.params.id],
    );
    if (!res.rows[0]) return reply.status(404).send({ message: 'not found' });
    return res.rows[0];
  });
  // The same bytes by primary key: the bodies a cold row answered, each stored as one row, read and sent
  // as they are. What one read by key costs when the answer is as large as the app's.
  await query(`drop table if exists pk_bodies`);
  await query(`create table pk_bodies (id uuid primary key, body text not null)`);
  process.on('message', async (m) => {
    if (!m?.bodies) return;
    await query(`truncate pk_bodies`);
    const rows = await query(
      `insert into pk_bodies select gen_random_uuid(), b from unnest($1::text[]) as b returning id`,
      [m.bodies],
    );
    await query(`analyze pk_bodies`);
    process.send?.({ bodies: rows.rows.map((r) => r.id) });
  });
  app.get('/body/:id', async (request, reply) => {
    if (!/^[0-9a-f-]{36}$/i.test(request.params.id)) return reply.status(400).send({ message: 'bad id' });
    const res = await query('select body from pk_bodies where id = $1', [request.params.id]);
    if (!res.rows[0]) return reply.status(404).send({ message: 'not found' });
    return reply.type('application/json; charset=utf-8').send(res.rows[0].body);
  });
  app.addHook('onClose', async () => close());
  process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
  await app.listen({ port: Number(process.env.PORT ?? 3227), host: '127.0.0.1' });
  process.send?.({ ready: true, ids });
}
