import type { Product } from '@legalmarket/contracts/catalogue';

/**
 * A catalogue product as the API answers it (`id` the same as `_id`), created on 1 January 2026 with none
 * of the optional details, no inclusions and no ratings yet. Tests pass the name, price and words they show.
 */
export function productFixture(
  product: Pick<Product, '_id' | 'productName' | 'productPrice' | 'productDescription' | 'productImage'>,
): Product {
  return {
    id: product._id,
    ...product,
    category: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    area: null,
    whatYouGet: null,
    deliveryDays: null,
    included: [],
    youProvide: [],
    notIncluded: [],
    ratingAverage: null,
    ratingCount: 0,
  };
}
