import { createHash } from 'node:crypto';
import { and, asc, avg, count, desc, eq, isNull } from 'drizzle-orm';
import {
  areaNamed,
  messages,
  productResponse,
  productFormFields,
  productsResponse,
  toKobo,
  toNaira,
  type Product,
  type ProductsQuery,
} from '@legalmarket/contracts';
import { cacheVersionsOf } from '../../db/cache-versions.js';
import type { Db, Executor } from '../../db/client.js';
import { products, reviews } from '../../db/schema.js';
import { recordAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, notFound } from '../../platform/errors.js';
import { PreparedBody } from '../../platform/response-cache.js';
import type { ReceivedFile, UploadsService } from '../uploads/service.js';

type ProductRow = typeof products.$inferSelect;

/** A product's reviews: the average of their stars and how many there are. */
interface Rating {
  average: number | null;
  count: number;
}
const NO_RATING: Rating = { average: null, count: 0 };

/** The one answer shape of a product: `_id` (and `id`), price in naira. */
function toProduct(row: ProductRow, rating: Rating = NO_RATING): Product {
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
    area: areaNamed(row.area),
    whatYouGet: row.whatYouGet,
    deliveryDays: row.deliveryDays,
    included: row.included,
    youProvide: row.youProvide,
    notIncluded: row.notIncluded,
    ratingAverage: rating.average,
    ratingCount: rating.count,
  };
}

/** One item per line, blank lines left out. */
const linesOf = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * The columns the issue-20 fields set: a field the form left out keeps its value (the spec's client
 * sends four fields), an empty one clears it.
 */
function extraColumns(input: ReturnType<typeof parseProductFields>) {
  const set: Partial<typeof products.$inferInsert> = {};
  if (input.area !== undefined) set.area = input.area || null;
  if (input.whatYouGet !== undefined) set.whatYouGet = input.whatYouGet || null;
  if (input.deliveryDays !== undefined) set.deliveryDays = input.deliveryDays ? Number(input.deliveryDays) : null;
  if (input.included !== undefined) set.included = linesOf(input.included);
  if (input.youProvide !== undefined) set.youProvide = linesOf(input.youProvide);
  if (input.notIncluded !== undefined) set.notIncluded = linesOf(input.notIncluded);
  return set;
}

/** The words of a search, lower case; a product matches when every word is in its text. */
const wordsOf = (q: string) => q.toLowerCase().split(/\s+/).filter(Boolean);
const searchTextOf = (p: Product) =>
  [p.productName, p.whatYouGet, p.area, p.category, p.productDescription].filter(Boolean).join(' ').toLowerCase();

/** The products `query` asks for, in the catalogue's order. */
export function filterProducts(items: Product[], query: ProductsQuery): Product[] {
  const words = query.q ? wordsOf(query.q) : [];
  return items.filter(
    (p) =>
      (query.area === undefined || p.area === query.area) &&
      (query.min === undefined || p.productPrice >= query.min) &&
      (query.max === undefined || p.productPrice <= query.max) &&
      (words.length === 0 || words.every((w) => searchTextOf(p).includes(w))),
  );
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
function parseProductFields(fields: Record<string, string>) {
  const parsed = productFormFields.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(400, issue?.message ?? 'Invalid product');
  }
  return parsed.data;
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;

/** A response ready to send: the prepared JSON (text and compressed copies) and its ETag (a hash of it). */
export class CachedResponse extends PreparedBody {
  readonly etag: string;
  constructor(value: unknown) {
    super(JSON.stringify(value), 'max');
    this.etag = `"${createHash('sha256').update(this.body).digest('base64url').slice(0, 27)}"`;
  }
}

/** The versions the catalogue copy is checked against (db/cache-versions.ts). */
const CATALOGUE_DEPENDS = ['products', 'reviews', 'app_settings'] as const;
/** Filtered answers kept per catalogue version; past it, the oldest goes. */
const FILTERED_KEPT = 256;

export function createCatalogueService(deps: { db: Db; clock: Clock; uploads: UploadsService }) {
  const { db, clock, uploads } = deps;

  /**
   * The catalogue (read on every visit, changed a few times a day), kept in memory while the versions
   * of products and app_settings have not moved: any write to them, on any instance or from outside
   * the app, makes the next request read it again. Decision 1500.
   */
  const versions = cacheVersionsOf(db);
  interface Copy {
    version: number;
    items: Product[];
    list: CachedResponse;
    byId: Map<string, CachedResponse>;
    /** Filtered lists asked for under this version, by their normalised query (at most FILTERED_KEPT). */
    filtered: Map<string, CachedResponse>;
  }
  let copy: Copy | null = null;
  let loading: { version: number; promise: Promise<Copy> } | null = null;

  async function load(version: number): Promise<Copy> {
    const items = await list();
    const next: Copy = {
      version,
      items,
      filtered: new Map(),
      // Parsed with the response schemas once, so the cached text is exactly what the schema allows.
      list: new CachedResponse(productsResponse.parse({ status: 'success', results: items.length, products: items })),
      byId: new Map(items.map((p) => [p._id, new CachedResponse(productResponse.parse(p))])),
    };
    if (!copy || copy.version < version) copy = next; // (versions only grow)
    return next;
  }

  async function currentCopy(): Promise<Copy> {
    const version = (await versions.read()).of(CATALOGUE_DEPENDS);
    if (copy?.version === version) return copy;
    // Callers that read the same version share one load; a later version starts its own.
    if (loading?.version !== version) {
      const p = load(version).finally(() => {
        if (loading?.promise === p) loading = null;
      });
      loading = { version, promise: p };
    }
    return loading.promise;
  }

  /**
   * GET /product-api/products, ready to send; with a filter, the matching products of the same copy
   * (filtered in memory: the catalogue is hundreds of products), kept beside it until the next change.
   */
  async function listResponse(query: ProductsQuery = {}): Promise<CachedResponse> {
    const current = await currentCopy();
    const key = JSON.stringify([query.q ? wordsOf(query.q) : [], query.area, query.min, query.max]);
    if (key === JSON.stringify([[], undefined, undefined, undefined])) return current.list;
    const kept = current.filtered.get(key);
    if (kept) return kept;
    const items = filterProducts(current.items, query);
    const response = new CachedResponse(
      productsResponse.parse({ status: 'success', results: items.length, products: items }),
    );
    if (current.filtered.size >= FILTERED_KEPT) current.filtered.delete(current.filtered.keys().next().value!);
    current.filtered.set(key, response);
    return response;
  }

  /** GET /product-api/product/{id}, ready to send; 404 when not on sale. */
  async function productResponseOf(id: string): Promise<CachedResponse> {
    const found = (await currentCopy()).byId.get(id);
    if (!found) throw notFound(messages.productNotFound);
    return found;
  }

  /** Each product's review average (stars are the review's `status`) and count. */
  async function ratings(productId?: string): Promise<Map<string, Rating>> {
    const rows = await db
      .select({ productId: reviews.productId, average: avg(reviews.status), count: count() })
      .from(reviews)
      .where(productId ? eq(reviews.productId, productId) : undefined)
      .groupBy(reviews.productId);
    return new Map(
      rows.map((r) => [
        r.productId,
        { average: r.average === null ? null : Math.round(Number(r.average) * 10) / 10, count: r.count },
      ]),
    );
  }

  async function list(): Promise<Product[]> {
    const [rows, rated] = await Promise.all([
      db.select().from(products).where(isNull(products.deletedAt)).orderBy(desc(products.createdAt), asc(products.id)),
      ratings(),
    ]);
    return rows.map((row) => toProduct(row, rated.get(row.id)));
  }

  async function get(id: string): Promise<Product> {
    const row = await findLiveProduct(db, id);
    if (!row) throw notFound(messages.productNotFound);
    return toProduct(row, (await ratings(id)).get(id));
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
          ...extraColumns(input),
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
      return toProduct(row);
    });
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
          ...extraColumns(input),
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
      if (current.area !== row.area) changed.area = { from: current.area, to: row.area };
      if (current.whatYouGet !== row.whatYouGet) changed.whatYouGet = { from: current.whatYouGet, to: row.whatYouGet };
      if (current.deliveryDays !== row.deliveryDays)
        changed.deliveryDays = { from: current.deliveryDays, to: row.deliveryDays };
      await recordAudit(tx, {
        actorId,
        action: 'product.update',
        targetType: 'product',
        targetId: id,
        details: { changed },
      });
      return toProduct(row);
    });
    // Read after the transaction: on PGlite a read outside it would wait for it.
    const rated = (await ratings(id)).get(id);
    return rated ? { ...updated, ratingAverage: rated.average, ratingCount: rated.count } : updated;
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
    });
  }

  return { list, get, listResponse, productResponse: productResponseOf, create, update, remove };
}
