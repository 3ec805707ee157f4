import { createHash } from 'node:crypto';
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  messages,
  productAnswer,
  productFields,
  productsAnswer,
  toKobo,
  toNaira,
  type Product,
} from '@legalmarket/contracts';
import { changesOf } from '../../db/changes.js';
import type { Db, Executor } from '../../db/client.js';
import { appSettings, products } from '../../db/schema.js';
import { recordAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, notFound } from '../../platform/errors.js';
import { prepare, type PreparedBody } from '../../platform/prepared.js';
import type { ReceivedFile, UploadsService } from '../uploads/service.js';

type ProductRow = typeof products.$inferSelect;

/** The one answer shape of a product: `_id` (and `id`), price in naira. */
export function toProduct(row: ProductRow): Product {
  return {
    _id: row.id,
    id: row.id,
    productName: row.productName,
    productPrice: toNaira(row.productPrice),
    productDescription: row.productDescription,
    productImage: row.productImage,
    category: row.category,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A product still in the catalogue (not deleted), or null. */
export async function findLiveProduct(ex: Executor, id: string) {
  const [row] = await ex
    .select()
    .from(products)
    .where(and(eq(products.id, id), isNull(products.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** Validates the text fields of a product form; answers the first problem as a 400 naming the field. */
export function parseProductFields(fields: Record<string, string>) {
  const parsed = productFields.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(400, issue?.message ?? 'Invalid product');
  }
  return parsed.data;
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;

/** app_settings row counting catalogue changes; every instance compares it with the copy it answers from. */
export const CATALOGUE_VERSION_KEY = 'catalogue_version';

/** An answer ready to send: the prepared JSON (bytes and compressed copies) and its ETag (a hash of it). */
export interface CachedAnswer extends PreparedBody {
  etag: string;
}

const answerOf = (value: unknown): CachedAnswer => {
  const prepared = prepare(JSON.stringify(value), 'max');
  return { ...prepared, etag: `"${createHash('sha256').update(prepared.body).digest('base64url').slice(0, 27)}"` };
};

/** The tables the catalogue copy is read from (the counters it is checked against, db/changes.ts). */
const CATALOGUE_DEPENDS = ['products', 'app_settings'] as const;

/** Adds one to the catalogue version, inside the transaction of the change. */
async function bumpCatalogueVersion(tx: Executor) {
  await tx
    .insert(appSettings)
    .values({ key: CATALOGUE_VERSION_KEY, value: 1 })
    .onConflictDoUpdate({
      target: appSettings.key,
      set: { value: sql`to_jsonb(coalesce((${appSettings.value} #>> '{}')::bigint, 0) + 1)`, updatedAt: sql`now()` },
    });
}

/**
 * What tells one copy of the catalogue from the next: the version counter, and the number and latest
 * change of the rows (so rows written around the service, like the starting catalogue, count too).
 */
async function catalogueFingerprint(ex: Executor) {
  const [row] = await ex
    .select({
      version: sql<string>`coalesce((select ${appSettings.value} #>> '{}' from ${appSettings} where ${appSettings.key} = ${CATALOGUE_VERSION_KEY}), '0')`,
      rows: sql<string>`count(*)::text`,
      latest: sql<string>`coalesce(max(${products.updatedAt})::text, '')`,
    })
    .from(products);
  return `${row.version}/${row.rows}/${row.latest}`;
}

export function createCatalogueService(deps: { db: Db; clock: Clock; uploads: UploadsService }) {
  const { db, clock, uploads } = deps;

  /**
   * The catalogue answers, kept in memory and answered without the database (the catalogue is read on
   * every visit and changes a few times a day). The copy is good while the change counters of
   * products and app_settings (db/changes.ts) have not moved since it was checked; when they have (a
   * write to either, on any instance), one cheap fingerprint query tells whether the catalogue itself
   * changed, and only then is it read again. docs/decisions/0700-catalogue-and-session-caches.md,
   * 0701-change-counter.md, 0702-counters-per-table.md.
   */
  const changes = changesOf(db);
  interface Snapshot {
    fingerprint: string;
    /** The counters' sum when the fingerprint was last found current. */
    version: number;
    list: CachedAnswer;
    byId: Map<string, CachedAnswer>;
  }
  let snapshot: Snapshot | null = null;
  let loading: { version: number; promise: Promise<Snapshot> } | null = null;
  let generation = 0;

  function forget() {
    generation += 1;
    snapshot = null;
    loading = null;
  }

  async function load(version: number): Promise<Snapshot> {
    const gen = generation;
    const fingerprint = await catalogueFingerprint(db);
    if (snapshot && snapshot.fingerprint === fingerprint) {
      if (version > snapshot.version) snapshot.version = version;
      return snapshot;
    }
    const items = await list();
    const next: Snapshot = {
      fingerprint,
      version,
      // Parsed with the answer schemas once, so the cached text is exactly what the schema allows.
      list: answerOf(productsAnswer.parse({ status: 'success', results: items.length, products: items })),
      byId: new Map(items.map((p) => [p._id, answerOf(productAnswer.parse(p))])),
    };
    // A change committed here while this copy was read must not be hidden behind it.
    if (gen === generation) snapshot = next;
    return next;
  }

  function currentCopy(): Snapshot | Promise<Snapshot> {
    const now = changes.snapshot();
    if (!(now instanceof Promise)) return copyAt(now.of(CATALOGUE_DEPENDS)); // (PGlite: no await, no query)
    return now.then((n) => copyAt(n.of(CATALOGUE_DEPENDS)));
  }
  function copyAt(version: number): Snapshot | Promise<Snapshot> {
    if (snapshot && snapshot.version === version) return snapshot;
    // Callers that read the same counter share one check; a later counter starts its own.
    if (!loading || loading.version !== version) {
      const p = load(version).finally(() => {
        if (loading?.promise === p) loading = null;
      });
      loading = { version, promise: p };
    }
    return loading.promise;
  }

  /** GET /product-api/products, ready to send. */
  async function listAnswer(): Promise<CachedAnswer> {
    return (await currentCopy()).list;
  }

  /** GET /product-api/product/{id}, ready to send; 404 when not on sale. */
  async function productAnswerOf(id: string): Promise<CachedAnswer> {
    const found = (await currentCopy()).byId.get(id);
    if (!found) throw notFound(messages.productNotFound);
    return found;
  }

  async function list(): Promise<Product[]> {
    const rows = await db
      .select()
      .from(products)
      .where(isNull(products.deletedAt))
      .orderBy(desc(products.createdAt), asc(products.id));
    return rows.map(toProduct);
  }

  async function get(id: string): Promise<Product> {
    const row = await findLiveProduct(db, id);
    if (!row) throw notFound(messages.productNotFound);
    return toProduct(row);
  }

  async function create(actorId: string, fields: Record<string, string>, image: ReceivedFile | null) {
    const input = parseProductFields(fields);
    if (!image) throw new AppError(400, messages.chooseProductImage);
    const created = await db.transaction(async (tx) => {
      const saved = await uploads.store(image, actorId, tx);
      const now = clock.now();
      const [row] = await tx
        .insert(products)
        .values({
          productName: input.productName,
          productPrice: toKobo(input.productPrice),
          productDescription: input.productDescription,
          productImage: saved.url,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await recordAudit(tx, {
        actorId,
        action: 'product.create',
        targetType: 'product',
        targetId: row.id,
        details: { productName: row.productName, productPrice: input.productPrice },
      });
      await bumpCatalogueVersion(tx);
      return toProduct(row);
    });
    forget();
    return created;
  }

  async function update(actorId: string, id: string, fields: Record<string, string>, image: ReceivedFile | null) {
    const input = parseProductFields(fields);
    const updated = await db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(products)
        .where(and(eq(products.id, id), isNull(products.deletedAt)))
        .for('update');
      if (!current) throw notFound(messages.productNotFound);
      const saved = image ? await uploads.store(image, actorId, tx) : null;
      const [row] = await tx
        .update(products)
        .set({
          productName: input.productName,
          productPrice: toKobo(input.productPrice),
          productDescription: input.productDescription,
          ...(saved ? { productImage: saved.url } : {}),
          updatedAt: clock.now(),
        })
        .where(eq(products.id, id))
        .returning();
      const changed: Record<string, { from: unknown; to: unknown }> = {};
      if (current.productName !== row.productName)
        changed.productName = { from: current.productName, to: row.productName };
      if (current.productPrice !== row.productPrice)
        changed.productPrice = { from: toNaira(current.productPrice), to: toNaira(row.productPrice) };
      if (current.productDescription !== row.productDescription) changed.productDescription = { from: '…', to: '…' };
      if (current.productImage !== row.productImage)
        changed.productImage = { from: current.productImage, to: row.productImage };
      await recordAudit(tx, {
        actorId,
        action: 'product.update',
        targetType: 'product',
        targetId: id,
        details: { changed },
      });
      await bumpCatalogueVersion(tx);
      return toProduct(row);
    });
    forget();
    return updated;
  }

  /** Hides the product from the catalogue; jobs, orders and reviews keep pointing at it. Repeating is harmless. */
  async function remove(actorId: string, id: string) {
    await db.transaction(async (tx) => {
      const [current] = await tx.select().from(products).where(eq(products.id, id)).for('update');
      if (!current) throw notFound(messages.productNotFound);
      if (current.deletedAt) return;
      const now = clock.now();
      await tx.update(products).set({ deletedAt: now, updatedAt: now }).where(eq(products.id, id));
      await recordAudit(tx, {
        actorId,
        action: 'product.delete',
        targetType: 'product',
        targetId: id,
        details: { productName: current.productName },
      });
      await bumpCatalogueVersion(tx);
    });
    forget();
  }

  return { list, get, listAnswer, productAnswer: productAnswerOf, create, update, remove };
}
