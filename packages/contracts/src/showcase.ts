import { z } from 'zod';
import { productResponse } from './catalogue.js';

/** Products the landing page features. */
export const FEATURED_PRODUCTS = 3;

/**
 * GET /api/showcase: what the landing and About pages show about the marketplace, counted from the
 * data: verified lawyers, jobs completed, and the first products of the catalogue.
 */
export const showcaseResponse = z.object({
  status: z.literal('success'),
  verifiedLawyers: z.number().int().nonnegative(),
  jobsCompleted: z.number().int().nonnegative(),
  products: z.array(productResponse).max(FEATURED_PRODUCTS),
});
export type ShowcaseResponse = z.infer<typeof showcaseResponse>;
