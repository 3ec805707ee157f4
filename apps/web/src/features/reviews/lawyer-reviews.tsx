import { useId, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { formatOrdinalDate, ratingLabel, starLabel } from '@legalmarket/contracts/format';
import {
  lawyerReplyInput,
  lawyerReviewFields,
  type LawyerReplyInput,
  type LawyerReview,
  type LawyerReviewFields,
} from '@legalmarket/contracts/lawyer-reviews';
import { useFormDraft } from '@/lib/drafts';
import { useSession } from '@/lib/use-session';
import { Button } from '@/components/button';
import { ErrorState, Loading } from '@/components/feedback';
import { FormError, TextArea } from '@/components/field';
import { Stars } from '@/components/stars';
import { getErrorMessage } from '@/lib/http';
import { useLawyerReviews, useReplyToReview, useSaveLawyerReview } from './api/lawyer-reviews';
import { ReviewFormFields } from './review-form-fields';

const countText = (n: number) => `${n} ${n === 1 ? 'review' : 'reviews'}`;

/** The average to one decimal as stars with its label, and the count (as on product pages). */
export function LawyerRatingSummary({ average, count }: { average: number | null; count: number }) {
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="lawyer-rating">
      {average !== null && count > 0 ? (
        <>
          <span className="text-2xl font-bold text-ink">{average.toFixed(1)}</span>
          <Stars value={average} />
          <span className="font-semibold text-ink">{ratingLabel(average)}</span>
          <span className="text-slate-600">{countText(count)}</span>
        </>
      ) : (
        <span className="text-slate-600">No reviews yet. {countText(0)}</span>
      )}
    </div>
  );
}

function ReviewItem({ r, canReply, lawyerId }: { r: LawyerReview; canReply: boolean; lawyerId: string }) {
  return (
    <li className="p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold wrap-anywhere text-ink">{r.reviewTitle}</h3>
          <p className="mt-1 flex items-center gap-2 text-sm">
            <Stars value={r.stars} size="sm" /> {starLabel(r.stars)}
          </p>
        </div>
        <p className="text-sm text-slate-600">{formatOrdinalDate(r.createdAt)}</p>
      </div>
      <p className="mt-2 whitespace-pre-line wrap-anywhere text-slate-800">{r.review}</p>
      <p className="mt-2 text-sm text-slate-600">
        {r.companyId.companyName} · {r.productName}
      </p>
      {r.reply ? (
        <div className="mt-3 rounded-md bg-slate-50 p-3 text-sm">
          <p className="font-semibold">The lawyer's answer</p>
          <p className="whitespace-pre-line wrap-anywhere">{r.reply}</p>
        </div>
      ) : (
        canReply && <ReplyForm review={r} lawyerId={lawyerId} />
      )}
    </li>
  );
}

function ReplyForm({ review, lawyerId }: { review: LawyerReview; lawyerId: string }) {
  const reply = useReplyToReview(lawyerId);
  const form = useForm<LawyerReplyInput, unknown, z.output<typeof lawyerReplyInput>>({
    resolver: zodResolver(lawyerReplyInput),
    defaultValues: { reply: '' },
  });
  const { register, handleSubmit, formState } = form;
  const clearDraft = useFormDraft(`review-reply:${review._id}`, form, ['reply']);
  const submit = handleSubmit((body) => reply.mutate({ id: review._id, body }, { onSuccess: clearDraft }));
  return (
    <form onSubmit={submit} noValidate className="mt-3 grid gap-2" aria-label={`Answer ${review.reviewTitle}`}>
      <TextArea
        label="Answer this review (once)"
        maxLength={2000}
        error={formState.errors.reply?.message}
        {...register('reply')}
      />
      <FormError message={reply.error ? getErrorMessage(reply.error) : null} />
      <div>
        <Button type="submit" variant="secondary" loading={reply.isPending}>
          Post answer
        </Button>
      </div>
    </form>
  );
}

/**
 * A lawyer's reviews on their profile: average, count and the newest reviews; the lawyer themself may
 * answer each review once.
 */
export function LawyerReviewsSection({ lawyerId }: { lawyerId: string }) {
  const headingId = useId();
  const session = useSession();
  const reviews = useLawyerReviews(lawyerId);
  const canReply = session?.userType === 'lawyer' && session.userId === lawyerId;
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="heading-section text-ink">
        Reviews
      </h2>
      {reviews.isPending ? (
        <Loading label="Loading reviews..." />
      ) : reviews.isError ? (
        <ErrorState message={getErrorMessage(reviews.error)} onRetry={() => void reviews.refetch()} />
      ) : (
        <>
          <div className="mt-2">
            <LawyerRatingSummary average={reviews.data.data.average} count={reviews.data.data.count} />
          </div>
          {reviews.data.data.reviews.length > 0 && (
            <ul
              className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
              aria-label="Reviews of this lawyer"
            >
              {reviews.data.data.reviews.map((r) => (
                <ReviewItem key={r._id} r={r} canReply={canReply} lawyerId={lawyerId} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

/**
 * On the job page: the lawyer's rating for everyone who sees the job, and for its company, once the
 * job is completed, the review of this job (written once, editable until `editableUntil`).
 */
export function JobLawyerReview({
  lawyerId,
  lawyerName,
  jobId,
  canReview,
}: {
  lawyerId: string;
  lawyerName: string;
  jobId: string;
  canReview: boolean;
}) {
  const headingId = useId();
  const summary = useLawyerReviews(lawyerId);
  const mine = useLawyerReviews(lawyerId, jobId);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const review = mine.data?.data.reviews[0] ?? null;
  // Editable while the server's window lasts; the server refuses later edits either way.
  const editable = !!review && Date.parse(review.editableUntil) > Date.now();

  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 id={headingId} className="heading-card">
        {lawyerName}'s reviews
      </h2>
      {summary.data ? (
        <div className="mt-2">
          <LawyerRatingSummary average={summary.data.data.average} count={summary.data.data.count} />
        </div>
      ) : summary.isError ? (
        <p className="text-sm text-slate-600">{getErrorMessage(summary.error)}</p>
      ) : (
        <Loading label="Loading reviews..." />
      )}
      {notice && (
        <p role="status" className="mt-3 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          {notice}
        </p>
      )}
      {canReview && mine.data && (
        <div className="mt-4">
          {review && !editing ? (
            <>
              <ul className="rounded-xl border border-slate-200" aria-label="Your review of this job">
                <ReviewItem r={review} canReply={false} lawyerId={lawyerId} />
              </ul>
              {editable && (
                <Button variant="secondary" className="mt-2" onClick={() => setEditing(true)}>
                  Edit your review
                </Button>
              )}
            </>
          ) : (
            <LawyerReviewForm
              lawyerId={lawyerId}
              jobId={jobId}
              editing={review}
              onDone={(message) => {
                setEditing(false);
                setNotice(message);
              }}
              onCancel={() => setEditing(false)}
            />
          )}
        </div>
      )}
    </section>
  );
}

function LawyerReviewForm({
  lawyerId,
  jobId,
  editing,
  onDone,
  onCancel,
}: {
  lawyerId: string;
  jobId: string;
  editing: LawyerReview | null;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const save = useSaveLawyerReview(lawyerId);
  const form = useForm<LawyerReviewFields, unknown, z.output<typeof lawyerReviewFields>>({
    resolver: zodResolver(lawyerReviewFields),
    defaultValues: {
      reviewTitle: editing?.reviewTitle ?? '',
      review: editing?.review ?? '',
      stars: editing?.stars ?? 0,
    },
  });
  // The review of this job, new or edited, is kept while it is written (decision 2226).
  const clearDraft = useFormDraft(`lawyer-review:${jobId}`, form, ['reviewTitle', 'review']);
  const submit = form.handleSubmit(async (body) => {
    try {
      const res = await save.mutateAsync({ id: editing?._id, jobId, body });
      clearDraft();
      onDone(res.message);
    } catch {
      // shown from save.error
    }
  });

  return (
    <FormProvider {...form}>
      <form
        onSubmit={submit}
        noValidate
        className="grid gap-4"
        aria-label={editing ? 'Edit your review of the lawyer' : 'Review the lawyer'}
      >
        <h3 className="font-semibold text-ink">{editing ? 'Edit your review of the lawyer' : 'Review the lawyer'}</h3>
        <ReviewFormFields
          rating="stars"
          showStarLabel
          editing={!!editing}
          saving={save.isPending}
          saveError={save.error}
          onCancel={() => {
            // Cancel means the changes are not wanted: their draft goes too.
            clearDraft();
            onCancel();
          }}
        />
      </form>
    </FormProvider>
  );
}
