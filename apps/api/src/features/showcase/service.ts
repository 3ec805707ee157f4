import { and, count, eq } from 'drizzle-orm';
import { FEATURED_PRODUCTS, type Product, type ShowcaseResponse } from '@legalmarket/contracts';
import { jobCounts, users } from '../../db/schema.js';
import type { Shared } from '../shared.js';
import type { CatalogueService } from '../catalogue/service.js';

type Deps = Pick<Shared, 'db'> & { catalogue: CatalogueService };

/** What the landing and About pages say about the marketplace, counted from the data (decision 1830). */
export function createShowcaseService({ db, catalogue }: Deps) {
  // The catalogue's prepared list is kept until the catalogue changes: its first products are read
  // from it once per copy, not parsed again for every visitor.
  const featuredOf = new WeakMap<object, Product[]>();

  async function featured(): Promise<Product[]> {
    const list = await catalogue.listResponse();
    let picked = featuredOf.get(list);
    if (!picked) {
      picked = (JSON.parse(list.body) as { products: Product[] }).products.slice(0, FEATURED_PRODUCTS);
      featuredOf.set(list, picked);
    }
    return picked;
  }

  return {
    async showcase(): Promise<ShowcaseResponse> {
      const [[lawyers], [completed], products] = await Promise.all([
        db
          .select({ n: count() })
          .from(users)
          .where(and(eq(users.userType, 'lawyer'), eq(users.verified, true))),
        // Kept by the jobs triggers (migration 0001): one row, not a count over every job.
        db.select({ n: jobCounts.n }).from(jobCounts).where(eq(jobCounts.key, 'status:completed')),
        featured(),
      ]);
      return {
        status: 'success',
        verifiedLawyers: Number(lawyers?.n ?? 0),
        jobsCompleted: Number(completed?.n ?? 0),
        products,
      };
    },
  };
}

export type ShowcaseService = ReturnType<typeof createShowcaseService>;
