import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import * as schema from './schema.js';

/**
 * Which change counters a write moves (db/changes.ts, docs/decisions/0702-counters-per-table.md).
 *
 * Every table of the schema has two counters: `t` moves on any write to `t` (rows added, changed or
 * removed) and `t!` only when rows that were already there changed or went (update, delete, an upsert
 * that may update, truncate). A list of rows depends on `t`; the cached answer about one existing row
 * (a verified session) only on `t!`, so a new login does not retire everyone's session.
 *
 * A write also moves what the database changes behind it: rows of other tables removed or nulled by
 * foreign keys (`on delete cascade` / `set null`, read from the schema) and tables written by triggers
 * (TRIGGER_WRITES, checked against the database by a test). `*` is moved by every write whose tables are
 * not known (DDL, a table outside the schema, a statement the parser does not understand); every cached
 * answer depends on it.
 */
export const ANY = '*';

/**
 * Table → tables its triggers write (migration 0001_job_counts: jobs keeps job_counts; migration 0002:
 * the orders guard only refuses).
 */
export const TRIGGER_WRITES: Readonly<Record<string, readonly string[]>> = {
  jobs: ['job_counts'],
  orders: [],
};

const tables: PgTable[] = (Object.values(schema) as unknown[]).filter((v): v is PgTable => v instanceof PgTable);
/** The names of the schema's tables. */
export const KNOWN_TABLES: readonly string[] = tables.map((t) => getTableConfig(t).name).sort();
const known = new Set(KNOWN_TABLES);

/** Every counter key: `*`, then `t` and `t!` per table. */
export const COUNTER_KEYS: readonly string[] = [ANY, ...KNOWN_TABLES.flatMap((t) => [t, `${t}!`])];

type Kind = 'insert' | 'update' | 'delete';
const ACTS = new Set(['cascade', 'set null', 'set default']);
/** Parent table → child tables whose existing rows its deletes (or updates) change through foreign keys. */
const fkChildren = { delete: new Map<string, Set<string>>(), update: new Map<string, Set<string>>() };
for (const t of tables) {
  const config = getTableConfig(t);
  for (const fk of config.foreignKeys) {
    const parent = getTableConfig(fk.reference().foreignTable).name;
    for (const [kind, action] of [
      ['delete', fk.onDelete],
      ['update', fk.onUpdate],
    ] as const) {
      if (!action || !ACTS.has(action)) continue;
      const children = fkChildren[kind];
      if (!children.has(parent)) children.set(parent, new Set());
      children.get(parent)!.add(config.name);
    }
  }
}

/** A write to `table` of this kind: the counter keys it moves, consequences included. */
export function keysOfWrite(table: string, kind: Kind, into: Set<string> = new Set()): Set<string> {
  if (!known.has(table)) {
    into.add(ANY);
    return into;
  }
  const seen = new Set<string>();
  const visit = (t: string, k: Kind) => {
    if (seen.has(`${t}/${k}`)) return;
    seen.add(`${t}/${k}`);
    into.add(t);
    if (k !== 'insert') {
      into.add(`${t}!`);
      // A cascaded delete deletes; `set null` / `set default` and cascaded updates update.
      for (const child of fkChildren[k].get(t) ?? []) visit(child, k);
    }
    // (The job_counts trigger upserts: rows already there change.)
    for (const written of TRIGGER_WRITES[t] ?? []) visit(written, 'update');
  };
  visit(table, kind);
  return into;
}

const NAME = String.raw`(?:"((?:[^"]|"")+)"|([a-z_][a-z0-9_$]*))`;
const QUALIFIED = `${NAME}(?:\\s*\\.\\s*${NAME})?`;
const WRITE_TARGET = new RegExp(
  String.raw`\b(insert\s+into|update|delete\s+from|truncate(?:\s+table)?|merge\s+into)\s+(?:only\s+)?${QUALIFIED}`,
  'gi',
);
const READ_SOURCE = new RegExp(String.raw`\b(?:from|join)\s+(?:only\s+)?${QUALIFIED}`, 'gi');
/** Words that follow `update` without being a table: `do update set`, `for update skip locked`, … */
const NOT_A_TABLE = new Set(['set', 'skip', 'nowait', 'of', 'lateral', 'select']);
const UPSERT_UPDATES = /\bon\s+conflict\b[\s\S]*?\bdo\s+update\b/i;
/** Statements that start reading and write nothing unless a write keyword follows (`with … select`). */
const READ_ONLY_START = /^\s*\(?\s*(with|values|table)\b/i;

const nameOf = (m: RegExpExecArray, first: number): string => {
  // schema.table → table; "quoted" names keep their case, bare names fold to lower case.
  const [q1, b1, q2, b2] = [m[first], m[first + 1], m[first + 2], m[first + 3]];
  if (q2 !== undefined || b2 !== undefined) return q2 !== undefined ? q2.replaceAll('""', '"') : b2!.toLowerCase();
  return q1 !== undefined ? q1.replaceAll('""', '"') : b1!.toLowerCase();
};

/**
 * The counter keys a statement that is not a plain read moves; an empty set for a `with … select`.
 * Anything it cannot name moves `*`.
 */
export function keysOfStatement(text: string): Set<string> {
  const keys = new Set<string>();
  const upsert = UPSERT_UPDATES.test(text);
  let found = false;
  for (const m of text.matchAll(WRITE_TARGET)) {
    const verb = m[1]!.toLowerCase();
    const bare = m[3];
    if (
      verb === 'update' &&
      bare !== undefined &&
      m[4] === undefined &&
      m[5] === undefined &&
      NOT_A_TABLE.has(bare.toLowerCase())
    )
      continue;
    found = true;
    const table = nameOf(m, 2);
    if (verb.startsWith('insert')) keysOfWrite(table, upsert ? 'update' : 'insert', keys);
    else if (verb === 'update') keysOfWrite(table, 'update', keys);
    else if (verb.startsWith('merge')) {
      keysOfWrite(table, 'update', keys);
      keysOfWrite(table, 'delete', keys);
    } else keysOfWrite(table, 'delete', keys); // delete, truncate
  }
  if (!found && !READ_ONLY_START.test(text)) keys.add(ANY);
  return keys;
}

/** The schema tables a read names after `from` or `join` (names it cannot place are left out). */
export function tablesRead(text: string, into: Set<string>) {
  for (const m of text.matchAll(READ_SOURCE)) {
    const name = nameOf(m, 1);
    if (known.has(name)) into.add(name);
  }
}
