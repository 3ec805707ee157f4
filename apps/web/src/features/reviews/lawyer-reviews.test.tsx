import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LawyerReview, LawyerReviewsResponse } from '@legalmarket/contracts/lawyer-reviews';
import { messages } from '@legalmarket/contracts/messages';
import { setSession } from '@/lib/session';
import { jsonFetch, renderPage, testQueryClient } from '@/test/render';
import { JobLawyerReview, LawyerReviewsSection } from './lawyer-reviews';
import { reviewKeys } from './api/keys';

const LAWYER = 'l1';
const JOB = '55555555-5555-4555-8555-555555555555';

const review = (over: Partial<LawyerReview> = {}): LawyerReview => ({
  _id: 'r1',
  jobId: JOB,
  lawyerId: LAWYER,
  stars: 4,
  reviewTitle: 'Clear and on time',
  review: 'Explained every clause.',
  companyId: { _id: 'c1', companyName: 'Ada Ventures Ltd' },
  productName: 'Shareholder Agreement',
  reply: null,
  repliedAt: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  editableUntil: '2099-01-01T00:00:00.000Z',
  ...over,
});
const answer = (reviews: LawyerReview[]): LawyerReviewsResponse => ({
  status: 'success',
  data: {
    average: reviews.length ? reviews.reduce((n, r) => n + r.stars, 0) / reviews.length : null,
    count: reviews.length,
    reviews,
  },
});

describe('reviews of a lawyer', () => {
  it('shows the company of a completed job the form, with the star label, and sends the review', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const client = testQueryClient();
    client.setQueryData(reviewKeys.lawyer(LAWYER), answer([]));
    client.setQueryData(reviewKeys.lawyer(LAWYER, JOB), answer([]));
    const api = jsonFetch({
      'POST /api/lawyer-reviews': () => ({
        status: 201,
        body: { status: 'success', message: messages.lawyerReviewSubmitted, data: { review: review() } },
      }),
      [`GET /api/lawyers/${LAWYER}/reviews`]: () => ({ body: answer([review()]) }),
    });
    vi.stubGlobal('fetch', api.fn);
    renderPage(<JobLawyerReview lawyerId={LAWYER} lawyerName="Chidi Okeke" jobId={JOB} canReview />, { client });
    expect(screen.getByText('No reviews yet. 0 reviews')).toBeVisible();
    const form = screen.getByRole('form', { name: 'Review the lawyer' });
    await userEvent.click(within(form).getByRole('button', { name: 'Submit review' }));
    expect(await within(form).findByText(messages.chooseStars)).toBeVisible();
    expect(within(form).getByText(messages.enterReviewTitle)).toBeVisible();
    await userEvent.click(within(form).getByRole('radio', { name: '2 stars' }));
    expect(within(form).getByText('Poor')).toBeVisible();
    await userEvent.type(within(form).getByLabelText('Title'), ' Clear and on time ');
    await userEvent.type(within(form).getByLabelText('Your review'), 'Explained every clause.');
    await userEvent.click(within(form).getByRole('button', { name: 'Submit review' }));
    expect(await screen.findByRole('status')).toHaveTextContent(messages.lawyerReviewSubmitted);
    const post = api.calls.find((c) => c.method === 'POST');
    expect(JSON.parse(String(post?.init?.body))).toEqual({
      jobId: JOB,
      stars: 2,
      reviewTitle: 'Clear and on time',
      review: 'Explained every clause.',
    });
  });

  it('shows no form before completion, and no edit button once the 14 days are over', () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const client = testQueryClient();
    const old = review({ editableUntil: '2020-01-01T00:00:00.000Z' });
    client.setQueryData(reviewKeys.lawyer(LAWYER), answer([old]));
    client.setQueryData(reviewKeys.lawyer(LAWYER, JOB), answer([old]));
    const { unmount } = renderPage(
      <JobLawyerReview lawyerId={LAWYER} lawyerName="Chidi Okeke" jobId={JOB} canReview={false} />,
      { client },
    );
    expect(screen.getByTestId('lawyer-rating')).toHaveTextContent('4.0');
    expect(screen.getByTestId('lawyer-rating')).toHaveTextContent('1 review');
    expect(screen.queryByRole('form')).toBeNull();
    unmount();
    renderPage(<JobLawyerReview lawyerId={LAWYER} lawyerName="Chidi Okeke" jobId={JOB} canReview />, { client });
    expect(screen.getByRole('list', { name: 'Your review of this job' })).toHaveTextContent('Clear and on time');
    expect(screen.queryByRole('button', { name: 'Edit your review' })).toBeNull();
  });

  it('lets the lawyer answer a review on their profile, and only them', () => {
    const client = testQueryClient();
    client.setQueryData(reviewKeys.lawyer(LAWYER), answer([review(), review({ _id: 'r2', reply: 'Thank you!' })]));
    setSession({ userToken: 't', userType: 'lawyer', userId: LAWYER });
    const { unmount } = renderPage(<LawyerReviewsSection lawyerId={LAWYER} />, { client });
    expect(screen.getAllByRole('form')).toHaveLength(1);
    expect(screen.getByText('Thank you!')).toBeVisible();
    unmount();
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    renderPage(<LawyerReviewsSection lawyerId={LAWYER} />, { client });
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('keeps the review of the job through a failed send and a reload, and drops it once saved (decision 2226)', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    let posts = 0;
    const api = jsonFetch({
      'POST /api/lawyer-reviews': () =>
        ++posts === 1
          ? { status: 500, body: { message: 'Something went wrong on our side' } }
          : {
              status: 201,
              body: { status: 'success', message: messages.lawyerReviewSubmitted, data: { review: review() } },
            },
      [`GET /api/lawyers/${LAWYER}/reviews`]: () => ({ body: answer([review()]) }),
    });
    vi.stubGlobal('fetch', api.fn);
    const show = () => {
      const client = testQueryClient();
      client.setQueryData(reviewKeys.lawyer(LAWYER), answer([]));
      client.setQueryData(reviewKeys.lawyer(LAWYER, JOB), answer([]));
      return renderPage(<JobLawyerReview lawyerId={LAWYER} lawyerName="Chidi Okeke" jobId={JOB} canReview />, {
        client,
      });
    };
    const long = 'Explained every clause of the shareholder agreement and answered within the hour.';
    const first = show();
    let form = screen.getByRole('form', { name: 'Review the lawyer' });
    await userEvent.click(within(form).getByRole('radio', { name: '5 stars' }));
    await userEvent.type(within(form).getByLabelText('Title'), 'Clear and on time');
    await userEvent.type(within(form).getByLabelText('Your review'), long);
    await userEvent.click(within(form).getByRole('button', { name: 'Submit review' }));
    expect(await within(form).findByText('Something went wrong on our side')).toBeVisible();
    expect(within(form).getByLabelText('Your review')).toHaveValue(long);
    expect(within(form).getByRole('button', { name: 'Submit review' })).toBeEnabled();

    first.unmount();
    show();
    form = screen.getByRole('form', { name: 'Review the lawyer' });
    await vi.waitFor(() => expect(within(form).getByLabelText('Your review')).toHaveValue(long));
    expect(within(form).getByLabelText('Title')).toHaveValue('Clear and on time');
    await userEvent.click(within(form).getByRole('radio', { name: '5 stars' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Submit review' }));
    expect(await screen.findByRole('status')).toHaveTextContent(messages.lawyerReviewSubmitted);
    expect(localStorage.getItem(`draft:c1:lawyer-review:${JOB}`)).toBeNull();
  });

  it("keeps the lawyer's answer to a review through a reload (decision 2226)", async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: LAWYER });
    const show = () => {
      const client = testQueryClient();
      client.setQueryData(reviewKeys.lawyer(LAWYER), answer([review()]));
      return renderPage(<LawyerReviewsSection lawyerId={LAWYER} />, { client });
    };
    const first = show();
    await userEvent.type(screen.getByLabelText('Answer this review (once)'), 'Thank you, it was a pleasure.');
    first.unmount();
    show();
    await vi.waitFor(() =>
      expect(screen.getByLabelText('Answer this review (once)')).toHaveValue('Thank you, it was a pleasure.'),
    );
  });

  it('a review sent again after a lost answer shows the review the first send wrote, not "already reviewed"', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    let written = false;
    const api = jsonFetch({
      'POST /api/lawyer-reviews': () => {
        // The first is written; its answer is lost. The second finds the job reviewed.
        if (!written) {
          written = true;
          throw new TypeError('Failed to fetch');
        }
        return { status: 409, body: { status: 'fail', message: messages.lawyerReviewOnce } };
      },
      [`GET /api/lawyers/${LAWYER}/reviews`]: () => ({ body: answer(written ? [review()] : []) }),
    });
    vi.stubGlobal('fetch', api.fn);
    const client = testQueryClient();
    client.setQueryData(reviewKeys.lawyer(LAWYER), answer([]));
    client.setQueryData(reviewKeys.lawyer(LAWYER, JOB), answer([]));
    renderPage(<JobLawyerReview lawyerId={LAWYER} lawyerName="Chidi Okeke" jobId={JOB} canReview />, { client });
    const form = screen.getByRole('form', { name: 'Review the lawyer' });
    await userEvent.click(within(form).getByRole('radio', { name: '4 stars' }));
    await userEvent.type(within(form).getByLabelText('Title'), 'Clear and on time');
    await userEvent.type(within(form).getByLabelText('Your review'), 'Explained every clause.');
    await userEvent.click(within(form).getByRole('button', { name: 'Submit review' }));
    expect(await within(form).findByText('Session timeout, please login again')).toBeVisible();
    await userEvent.click(within(form).getByRole('button', { name: 'Submit review' }));
    const mine = await screen.findByRole('list', { name: 'Your review of this job' });
    expect(within(mine).getByText('Clear and on time')).toBeVisible();
    expect(screen.queryByRole('form', { name: 'Review the lawyer' })).toBeNull();
    expect(screen.queryByText(messages.lawyerReviewOnce)).toBeNull();
  });

  it('an answer sent again after a lost answer shows the lawyer\'s answer, not "already answered"', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: LAWYER });
    let answered = false;
    const api = jsonFetch({
      'POST /api/lawyer-reviews/r1/reply': () => {
        if (!answered) {
          answered = true;
          throw new TypeError('Failed to fetch');
        }
        return { status: 409, body: { status: 'fail', message: messages.lawyerReplyOnce } };
      },
      [`GET /api/lawyers/${LAWYER}/reviews`]: () => ({
        body: answer([review(answered ? { reply: 'Thank you, it was a pleasure.' } : {})]),
      }),
    });
    vi.stubGlobal('fetch', api.fn);
    const client = testQueryClient();
    client.setQueryData(reviewKeys.lawyer(LAWYER), answer([review()]));
    renderPage(<LawyerReviewsSection lawyerId={LAWYER} />, { client });
    await userEvent.type(screen.getByLabelText('Answer this review (once)'), 'Thank you, it was a pleasure.');
    await userEvent.click(screen.getByRole('button', { name: 'Post answer' }));
    expect(await screen.findByText('Session timeout, please login again')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Post answer' }));
    expect(await screen.findByText("The lawyer's answer")).toBeVisible();
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByText(messages.lawyerReplyOnce)).toBeNull();
  });
});
