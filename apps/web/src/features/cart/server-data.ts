import type { CartResponse } from '@legalmarket/contracts/commerce';
import { cartOfResponse } from './api/get-cart';
import { cartKeys } from './api/keys';

/** The cart query's key and value for a GET /api/cart answer the server rendered /cart with (decision 2100). */
export const cartQueryOf = (body: unknown) => [cartKeys.cart(), cartOfResponse(body as CartResponse)] as const;
