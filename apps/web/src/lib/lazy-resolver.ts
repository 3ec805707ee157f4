import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A react-hook-form resolver loaded on the first validation. The server-rendered first pages
 * (`/pre-cart/{id}`) use it so their JavaScript carries neither zod nor the contract's schema.
 */
export function lazyResolver<TValues extends FieldValues, TOutput>(
  load: () => Promise<Resolver<TValues, unknown, TOutput>>,
): Resolver<TValues, unknown, TOutput> {
  let loaded: Promise<Resolver<TValues, unknown, TOutput>> | undefined;
  return async (values, context, options) => (await (loaded ??= load()))(values, context, options);
}
