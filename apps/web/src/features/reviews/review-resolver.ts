import { zodResolver } from '@hookform/resolvers/zod';
import { reviewInput } from '@legalmarket/contracts/catalogue';

/** Loaded on the first submit (lib/lazy-resolver.ts): the product page renders without zod. */
export const reviewResolver = zodResolver(reviewInput.omit({ productId: true }));
