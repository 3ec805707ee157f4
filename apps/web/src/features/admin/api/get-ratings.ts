import { useQuery } from '@tanstack/react-query';
import type { ReviewsResponse } from '@legalmarket/contracts/catalogue';
import { api } from '@/lib/http';
import { adminKeys } from './keys';

/** Every review, newest first (GET /ratings-api/rating, built with the reviews feature). */
const getRatings = () => api<ReviewsResponse>('/ratings-api/rating');

export const useRatings = () => useQuery({ queryKey: adminKeys.ratings(), queryFn: getRatings });
