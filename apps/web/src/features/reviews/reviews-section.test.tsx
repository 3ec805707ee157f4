import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@legalmarket/contracts/messages';
import { setSession } from '@/lib/session';
import { jsonFetch, renderPage, testQueryClient } from '@/test/render';
import { ReviewsSection } from './reviews-section';
import { reviewKeys } from './api/keys';

const PRODUCT_ID = '44444444-4444-4444-8444-444444444444';

function open() {
  setSession({ userToken: 't', userType: 'company', userId: 'c1' });
  const client = testQueryClient();
  client.setQueryData(reviewKeys.product(PRODUCT_ID), []);
  renderPage(<ReviewsSection productId={PRODUCT_ID} />, { client });
  return screen.getByRole('form', { name: 'Write a review' });
}

describe('Review form (react-hook-form with the contract schema, loaded on first use)', () => {
  it('names every missing field with the contract messages', async () => {
    const form = open();
    await userEvent.type(within(form).getByLabelText('Title'), '   ');
    await userEvent.click(within(form).getByRole('button', { name: 'Submit review' }));
    expect(await within(form).findByText(messages.enterReviewTitle)).toBeVisible();
    expect(within(form).getByText(messages.enterReviewText)).toBeVisible();
    expect(within(form).getByText(messages.chooseStars)).toBeVisible();
    expect(within(form).getByLabelText('Title')).toHaveAccessibleDescription(messages.enterReviewTitle);
  });

  it('refuses a title longer than the contract allows, with its message', async () => {
    const form = open();
    // Longer than the field's own limit, as a script or autofill may set it.
    fireEvent.change(within(form).getByLabelText('Title'), { target: { value: 't'.repeat(121) } });
    await userEvent.click(within(form).getByRole('radio', { name: '4 stars' }));
    await userEvent.type(within(form).getByLabelText('Your review'), 'Quick and clear.');
    await userEvent.click(within(form).getByRole('button', { name: 'Submit review' }));
    expect(await within(form).findByText('Review title must be at most 120 characters')).toBeVisible();
  });

  it('sends the trimmed review with its stars and empties the form', async () => {
    const api = jsonFetch({
      'POST /api/rating': () => ({ body: { message: 'Review added' } }),
      'GET /ratings-api/rating': () => ({ body: [] }),
    });
    vi.stubGlobal('fetch', api.fn);
    const form = open();
    await userEvent.type(within(form).getByLabelText('Title'), '  Great work ');
    await userEvent.click(within(form).getByRole('radio', { name: '4 stars' }));
    await userEvent.type(within(form).getByLabelText('Your review'), ' Quick and clear. ');
    await userEvent.click(within(form).getByRole('button', { name: 'Submit review' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Review added');
    const post = api.calls.find((c) => c.method === 'POST');
    expect(JSON.parse(String(post?.init?.body))).toEqual({
      reviewTitle: 'Great work',
      review: 'Quick and clear.',
      status: 4,
      productId: PRODUCT_ID,
    });
    expect(within(form).getByLabelText('Title')).toHaveValue('');
    expect(within(form).getByRole('radio', { name: '4 stars' })).toHaveAttribute('aria-checked', 'false');
  });

  it('keeps the review through a lost connection and a reload, and drops it once sent (decision 2226)', async () => {
    let posts = 0;
    const api = jsonFetch({
      'POST /api/rating': () => {
        if (++posts === 1) throw new TypeError('Failed to fetch');
        return { body: { message: 'Review added' } };
      },
      'GET /ratings-api/rating': () => ({ body: [] }),
    });
    vi.stubGlobal('fetch', api.fn);
    const long = 'They turned our term sheet around in two days and explained each clause in plain words.';
    let form = open();
    await userEvent.type(within(form).getByLabelText('Title'), 'Fast and plain');
    await userEvent.click(within(form).getByRole('radio', { name: '5 stars' }));
    await userEvent.type(within(form).getByLabelText('Your review'), long);
    await userEvent.click(within(form).getByRole('button', { name: 'Submit review' }));
    expect(await within(form).findByText('Session timeout, please login again')).toBeVisible();
    expect(within(form).getByLabelText('Your review')).toHaveValue(long);

    cleanup();
    form = open();
    await vi.waitFor(() => expect(within(form).getByLabelText('Your review')).toHaveValue(long));
    expect(within(form).getByLabelText('Title')).toHaveValue('Fast and plain');
    await userEvent.click(within(form).getByRole('radio', { name: '5 stars' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Submit review' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Review added');
    expect(posts).toBe(2);
    expect(localStorage.getItem(`draft:c1:review:${PRODUCT_ID}`)).toBeNull();
    cleanup();
    form = open();
    expect(within(form).getByLabelText('Your review')).toHaveValue('');
  });

  it('takes focus to the stars when they are the first field missing', async () => {
    const form = open();
    await userEvent.type(within(form).getByLabelText('Title'), 'Fast and plain');
    await userEvent.type(within(form).getByLabelText('Your review'), 'Clear advice on our seed round.');
    await userEvent.click(within(form).getByRole('button', { name: 'Submit review' }));
    expect(await within(form).findByText(messages.chooseStars)).toBeVisible();
    expect(within(form).getByRole('radio', { name: '1 star' })).toHaveFocus();
  });
});
