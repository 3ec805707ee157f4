import { createHash } from 'node:crypto';
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import {
  messages,
  productResponse,
  productFields,
  productsResponse,
  toKobo,
  toNaira,
  type Product,
} from '@legalmarket/contracts';
import { cacheVersionsOf } from '../../db/cache-versions.js';
import type { Db, Executor } from '../../db/client.js';
import { products } from '../../db/schema.js';
import { recordAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, notFound } from '../../platform/errors.js';
import { PreparedBody } from '../../platform/response-cache.js';
import type { ReceivedFile, UploadsService } from '../uploads/service.js';

type ProductRow = typeof products.$inferSelect;

/** The one answer shape of a product: `_id` (and `id`), price in naira. */
function toProduct(row: ProductRow): Product {
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
function parseProductFields(fields: Record<string, string>) {
  const parsed = productFields.safeParse(fields);
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
const CATALOGUE_DEPENDS = ['products', 'app_settings'] as const;

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
    list: CachedResponse;
    byId: Map<string, CachedResponse>;
  }
  let copy: Copy | null = null;
  let loading: { version: number; promise: Promise<Copy> } | null = null;

  async function load(version: number): Promise<Copy> {
    const items = await list();
    const next: Copy = {
      version,
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

  /** GET /product-api/products, ready to send. */
  async function listResponse(): Promise<CachedResponse> {
    return (await currentCopy()).list;
  }

  /** GET /product-api/product/{id}, ready to send; 404 when not on sale. */
  async function productAnswerOf(id: string): Promise<CachedResponse> {
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
      return toProduct(row);
    });
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
    });
  }

  return { list, get, listResponse, productResponse: productAnswerOf, create, update, remove };
}
