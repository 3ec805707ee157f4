import { zodResolver } from '@hookform/resolvers/zod';
import { addToCartInput } from '@legalmarket/contracts/commerce';

/** Loaded on the first Reserve (lib/lazy-resolver.ts): the product page renders without zod. */
export const reserveResolver = zodResolver(addToCartInput.omit({ productId: true }));
