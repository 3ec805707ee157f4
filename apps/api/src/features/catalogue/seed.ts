import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { toKobo, type Area } from '@legalmarket/contracts';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { appSettings, products } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import type { Storage } from '../../platform/storage.js';
import { createUploadsService, detectFile } from '../uploads/service.js';

/** Where the starting catalogue lives in the repository (apps/api/seed). */
const SEED_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../seed');
const SEED_SETTING = 'catalogue_seeded';

interface SeedProduct {
  image: string;
  category: string;
  productName: string;
  productPrice: number;
  productDescription: string;
  /** Issue 20's fields (decision 2010). */
  area: Area;
  whatYouGet: string;
  deliveryDays: number;
  included: string[];
  youProvide: string[];
  notIncluded: string[];
}

async function readSeedCatalogue(dir = SEED_DIR): Promise<SeedProduct[]> {
  return JSON.parse(await readFile(path.join(dir, 'catalogue.json'), 'utf8')) as SeedProduct[];
}

type SeedResult = 'seeded' | 'disabled' | 'already-seeded' | 'catalogue-not-empty';

/**
 * Gives an empty marketplace its starting catalogue, once. It never runs twice (a row in app_settings
 * says it ran) and never touches a catalogue that already has products, deleted ones included, so an
 * admin's edits are safe. Several instances starting together seed once (advisory lock).
 */
export async function seedCatalogue(deps: {
  db: Db;
  storage: Storage;
  clock: Clock;
  config: Config;
  hashToken?: (v: string) => string;
  log?: (msg: string) => void;
  dir?: string;
}): Promise<SeedResult> {
  if (!deps.config.SEED_CATALOGUE) return 'disabled';
  const dir = deps.dir ?? SEED_DIR;
  const items = await readSeedCatalogue(dir);
  const uploads = createUploadsService({ ...deps, hashToken: deps.hashToken ?? ((v) => v) });
  // Read and check the pictures before opening the transaction.
  const files = await Promise.all(
    items.map(async (item) => {
      const data = await readFile(path.join(dir, 'products', item.image));
      return {
        fieldName: 'productImage',
        originalName: item.image,
        data,
        kind: 'image' as const,
        detected: await detectFile(data, 'image', item.image),
      };
    }),
  );
  const result = await deps.db.transaction(async (tx): Promise<SeedResult> => {
    await tx.execute(sql`select pg_advisory_xact_lock(774412)`);
    const done = await tx
      .select()
      .from(appSettings)
      .where(sql`${appSettings.key} = ${SEED_SETTING}`)
      .limit(1);
    if (done.length) return 'already-seeded';
    const [{ n }] = await tx.select({ n: sql<number>`count(*)::int` }).from(products);
    const now = deps.clock.now();
    if (n > 0) {
      await tx
        .insert(appSettings)
        .values({ key: SEED_SETTING, value: { skipped: 'catalogue-not-empty', at: now.toISOString() } });
      return 'catalogue-not-empty';
    }
    // The list is newest first; the first item gets the latest time so the shop shows the file's order.
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const saved = await uploads.store(files[i], null, tx);
      const at = new Date(now.getTime() - i * 1000);
      await tx.insert(products).values({
        productName: item.productName,
        productPrice: toKobo(item.productPrice),
        productDescription: item.productDescription,
        productImage: saved.url,
        category: item.category,
        area: item.area,
        whatYouGet: item.whatYouGet,
        deliveryDays: item.deliveryDays,
        included: item.included,
        youProvide: item.youProvide,
        notIncluded: item.notIncluded,
        createdAt: at,
        updatedAt: at,
      });
    }
    await tx
      .insert(appSettings)
      .values({ key: SEED_SETTING, value: { products: items.length, at: now.toISOString() } });
    return 'seeded';
  });
  if (result === 'seeded') deps.log?.(`Seeded the starting catalogue with ${items.length} products`);
  return result;
}
