import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPreparedSelects } from './prepared-selects.js';

/** The embedded database's client prepares each SELECT once; it must answer exactly what PGlite does. */
describe('prepared selects on PGlite', () => {
  let raw: PGlite;
  let client: PGlite;
  const prepared = async () =>
    (await raw.query<{ name: string }>('select name from pg_prepared_statements order by name')).rows.map(
      (r) => r.name,
    );

  beforeAll(async () => {
    raw = new PGlite();
    await raw.exec(`create table t (id int primary key, name text, at timestamptz, tags text[]);
      insert into t select i, 'name ' || i, '2026-11-25T10:00:00Z'::timestamptz + i * interval '1 day', array['a', 'b']
      from generate_series(1, 20) as i;`);
    client = withPreparedSelects(raw, 3);
  });
  afterAll(async () => {
    await raw.close();
  });

  it('answers what PGlite answers, in both row modes, with the same parsers', async () => {
    const text = 'select id, name, at, tags from t where id > $1 and name <> $2 order by id limit 5';
    for (const rowMode of ['object', 'array'] as const) {
      const expected = await raw.query(text, [10, 'x'], { rowMode });
      const got = await client.query(text, [10, 'x'], { rowMode });
      expect(got.rows).toEqual(expected.rows);
      expect(got.fields).toEqual(expected.fields);
    }
    // The second run binds the statement made by the first, and a null parameter binds as null.
    expect(
      (await client.query('select id from t where id > $1 and name <> $2 order by id limit 5', [18, null])).rows,
    ).toEqual([]);
    expect(await prepared()).toHaveLength(2);
  });

  it('keeps at most `max` statements, oldest out first', async () => {
    for (let i = 0; i < 5; i++) await client.query(`select ${i} as n from t where id = $1`, [1]);
    expect(await prepared()).toHaveLength(3);
    expect((await client.query('select 0 as n from t where id = $1', [1])).rows).toEqual([{ n: 0 }]);
  });

  it('keeps PostgreSQL errors and stays usable after one', async () => {
    await expect(client.query('select * from t where id = $1', ['not a number'])).rejects.toMatchObject({
      code: '22P02',
    });
    await expect(client.query('select * from missing_table')).rejects.toMatchObject({ code: '42P01' });
    expect((await client.query('select count(*)::int as n from t')).rows).toEqual([{ n: 20 }]);
  });

  it('leaves writes and transactions to PGlite, and waits for an open transaction', async () => {
    let committed = false;
    let updated!: () => void;
    const inside = new Promise<void>((resolve) => (updated = resolve));
    const tx = raw.transaction(async (t) => {
      await t.query(`update t set name = 'changed' where id = 1`);
      updated();
      await new Promise((r) => setTimeout(r, 50));
      committed = true;
    });
    await inside;
    // Asked while the transaction is open: answered after it committed, with its write.
    const read = await client.query<{ name: string }>('select name from t where id = $1', [1]);
    expect(committed).toBe(true);
    await tx;
    expect(read.rows[0].name).toBe('changed');
    await client.query(`update t set name = 'again' where id = $1`, [1]);
    expect((await raw.query<{ name: string }>('select name from t where id = 1')).rows[0].name).toBe('again');
  });
});
