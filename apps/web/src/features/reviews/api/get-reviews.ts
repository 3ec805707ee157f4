import { reviewKeys } from './keys';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { averageStars } from '@legalmarket/contracts/constants';
import type { ReviewsResponse } from '@legalmarket/contracts/catalogue';
import { api } from '@/lib/http';

/** GET /ratings-api/rating?productId=: the reviews of one product (an array), with average and count. */
const reviewsQueryOptions = (productId: string) =>
  queryOptions({
    queryKey: reviewKeys.product(productId),
    queryFn: ({ signal }) => api<ReviewsResponse>('/ratings-api/rating', { query: { productId }, signal }),
    select: (reviews) => ({
      reviews,
      results: reviews.length,
      average: averageStars(reviews.map((r) => r.status)),
    }),
  });

export const useReviews = (productId: string) => useQuery(reviewsQueryOptions(productId));
