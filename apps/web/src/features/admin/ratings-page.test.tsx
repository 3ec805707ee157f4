import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { Review, ReviewsResponse } from '@legalmarket/contracts/catalogue';
import { renderPage, testQueryClient } from '@/test/render';
import { adminKeys } from './api/keys';
import AdminRatingsPage from './ratings-page';

const review = (stars: number): Review => ({
  _id: `r${stars}`,
  date: '2026-11-21T10:00:00.000Z',
  reviewTitle: `Review with ${stars}`,
  review: 'Text',
  status: stars,
  companyId: { _id: 'c1', companyName: 'Ada Ventures Ltd' },
  productId: 'p1',
  productName: 'Shareholder agreement',
  verifiedPurchase: false,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
});

describe('/admin/ratings', () => {
  it("shows each review's stars with the scale's word for them", () => {
    const client = testQueryClient();
    const reviews = [5, 4, 3, 2, 1].map(review);
    const answer: ReviewsResponse = reviews;
    client.setQueryData(adminKeys.ratings(), answer);
    renderPage(<AdminRatingsPage />, { client });
    expect(screen.getAllByTestId('star-label').map((e) => e.textContent)).toEqual([
      'Excellent',
      'Very good',
      'Average',
      'Poor',
      'Terrible',
    ]);
    expect(screen.getByRole('img', { name: '5 out of 5 stars' })).toBeInTheDocument();
  });
});
