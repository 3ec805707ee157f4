import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

type Message = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

/**
 * PGlite plans every statement it is sent, on the one event loop, and planning a job list's joins
 * costs several times running it. This client prepares each distinct SELECT once, by name (what
 * postgres.js does with `prepare: true`), and afterwards only binds and runs it; anything else, and
 * every statement inside a transaction, goes through PGlite as it is. The server's driver is left
 * alone: PostgreSQL plans in native code on its own cores.
 */
export function withPreparedSelects(client: PGlite, max = 500): PGlite {
  const { serialize } = protocol;
  /** SQL text → its statement, oldest first out. */
  const statements = new Map<string, { name: string; paramTypes: number[] }>();
  let made = 0;
  const run = (message: Uint8Array) => client.execProtocolStream(message, { syncToFs: false });
  const join = (...parts: Uint8Array[]) => {
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    return all;
  };

  async function prepare(text: string, options?: QueryOptions) {
    if (statements.size >= max) {
      const [oldest, { name }] = statements.entries().next().value!;
      statements.delete(oldest);
      await run(join(serialize.close({ type: 'S', name }), serialize.sync()));
    }
    const name = `prepared_select_${++made}`;
    const messages = await run(
      join(
        serialize.parse({ name, text, types: options?.paramTypes }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ),
    );
    const described = messages.find((m): m is Message & { dataTypeIDs: number[] } => m.name === 'parameterDescription');
    const statement = { name, paramTypes: described?.dataTypeIDs ?? [] };
    statements.set(text, statement);
    return statement;
  }

  const query = <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> =>
    client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        const statement = statements.get(text) ?? (await prepare(text, options));
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const type = statement.paramTypes[i];
          const serializer = options?.serializers?.[type] ?? client.serializers[type];
          return serializer ? serializer(value) : String(value);
        });
        const messages = await run(
          join(
            serialize.bind({ statement: statement.name, values }),
            serialize.describe({ type: 'P' }),
            serialize.execute({}),
            serialize.sync(),
          ),
        );
        return parse.parseResults(messages, client.parsers, options)[0] as Results<T>;
      }),
    );

  return new Proxy(client, {
    get(target, property) {
      if (property === 'query')
        return (text: string, params?: unknown[], options?: QueryOptions) =>
          /^select\s/i.test(text) && !options?.blob
            ? query(text, params, options)
            : target.query(text, params, options);
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
