import { products } from '../src/db/schema.js';
import type { TestApp } from './helpers.js';

/** Inserts a live catalogue product (price in naira, stored as kobo) and answers its id. */
export async function insertProduct(t: TestApp, name: string, priceNaira: number) {
  const [row] = await t.rt.database.db
    .insert(products)
    .values({
      productName: name,
      productPrice: priceNaira * 100,
      productDescription: `${name}: drafted and reviewed by a Nigerian lawyer.`,
      productImage: `/uploads/${'a'.repeat(32)}.png`,
    })
    .returning({ id: products.id });
  return row.id;
}
