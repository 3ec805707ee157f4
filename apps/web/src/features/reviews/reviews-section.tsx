import { useId, useRef, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Link } from 'react-router';
import { Pencil, Trash2 } from 'lucide-react';
import { formatOrdinalDate, ratingLabel } from '@legalmarket/contracts/format';
import type { Review, ReviewInput, reviewInput } from '@legalmarket/contracts/catalogue';
import { paths } from '@/lib/paths';
import { useFormDraft } from '@/lib/drafts';
import { useSession } from '@/lib/use-session';
import { ErrorState, Loading } from '@/components/feedback';
import { ConfirmDialog } from '@/components/modal';
import { Stars } from '@/components/stars';
import { getErrorMessage } from '@/lib/http';
import { lazyResolver } from '@/lib/lazy-resolver';
import { useDeleteReview } from './api/delete-review';
import { useReviews } from './api/get-reviews';
import { useSaveReview } from './api/save-review';
import { ReviewFormFields } from './review-form-fields';

const countText = (n: number) => `${n} ${n === 1 ? 'review' : 'reviews'}`;

/**
 * The reviews of one product (spec screen 10): average to one decimal as stars with its label, the
 * count, each review with its ordinal date; the form only for a signed-in company, with an edit mode
 * that keeps the review id and is left by Cancel or by saving.
 */
export function ReviewsSection({ productId }: { productId: string }) {
  const headingId = useId();
  const session = useSession();
  const reviews = useReviews(productId);
  const remove = useDeleteReview(productId);
  const [editing, setEditing] = useState<Review | null>(null);
  const [confirm, setConfirm] = useState<Review | null>(null);
  const [notice, setNotice] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const formRef = useRef<HTMLDivElement>(null);

  const isCompany = session?.userType === 'company';
  const mine = (r: Review) => isCompany && session?.userId === r.companyId._id;

  return (
    <section aria-labelledby={headingId} className="mt-12">
      <h2 id={headingId} className="heading-section text-ink">
        Reviews
      </h2>
      {reviews.isPending ? (
        <Loading label="Loading reviews..." />
      ) : reviews.isError ? (
        <ErrorState message={getErrorMessage(reviews.error)} onRetry={() => void reviews.refetch()} />
      ) : (
        <>
          <div className="mt-3 flex flex-wrap items-center gap-3" data-testid="review-summary">
            {reviews.data.results > 0 ? (
              <>
                <span className="text-3xl font-bold text-ink">{reviews.data.average.toFixed(1)}</span>
                <Stars value={reviews.data.average} size="lg" />
                <span className="font-semibold text-ink">{ratingLabel(reviews.data.average)}</span>
                <span className="text-slate-600">{countText(reviews.data.results)}</span>
              </>
            ) : (
              <span className="text-slate-600">No reviews yet. {countText(0)}</span>
            )}
          </div>
          <div aria-live="polite">
            {notice && (
              <p
                role={notice.tone === 'error' ? 'alert' : 'status'}
                className={`mt-4 rounded-md px-3 py-2 text-sm ${notice.tone === 'success' ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-800'}`}
              >
                {notice.text}
              </p>
            )}
          </div>
          {reviews.data.results > 0 && (
            <ul
              className="mt-6 divide-y divide-slate-200 rounded-xl border border-slate-200"
              aria-label="Reviews of this product"
            >
              {reviews.data.reviews.map((r) => (
                <li key={r._id} className="p-4">
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <div>
                      <h3 className="font-semibold text-ink">{r.reviewTitle}</h3>
                      <Stars value={r.status} size="sm" className="mt-1" />
                    </div>
                    <p className="text-sm text-slate-600">{formatOrdinalDate(r.date)}</p>
                  </div>
                  <p className="mt-2 whitespace-pre-line text-slate-800">{r.review}</p>
                  <p className="mt-2 text-sm text-slate-600">
                    {r.companyId.companyName}
                    {r.verifiedPurchase && (
                      <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">
                        Verified purchase
                      </span>
                    )}
                  </p>
                  {mine(r) && (
                    <div className="mt-2 flex gap-2">
                      <button
                        type="button"
                        className="inline-flex min-h-11 items-center gap-1 rounded-md px-3 text-sm font-semibold text-brand hover:bg-brand/5"
                        aria-label={`Edit your review ${r.reviewTitle}`}
                        onClick={() => {
                          setNotice(null);
                          setEditing(r);
                          requestAnimationFrame(() => formRef.current?.querySelector('input')?.focus());
                        }}
                      >
                        <Pencil aria-hidden className="size-4" /> Edit
                      </button>
                      <button
                        type="button"
                        className="inline-flex min-h-11 items-center gap-1 rounded-md px-3 text-sm font-semibold text-red-700 hover:bg-red-50"
                        aria-label={`Delete your review ${r.reviewTitle}`}
                        onClick={() => setConfirm(r)}
                      >
                        <Trash2 aria-hidden className="size-4" /> Delete
                      </button>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}

      <div ref={formRef} className="mt-8 max-w-xl">
        {!session ? (
          <p className="text-slate-700">
            <Link to={paths.login()} className="font-semibold text-brand underline">
              Log in
            </Link>{' '}
            to write a review.
          </p>
        ) : isCompany && !editing && reviews.data?.reviews.some(mine) ? (
          // One review per company and product (decision 2001): it is changed with its Edit button.
          <p className="text-slate-700">You have reviewed this product. Use Edit on your review to change it.</p>
        ) : isCompany ? (
          <ReviewForm
            key={editing?._id ?? 'new'}
            productId={productId}
            editing={editing}
            onDone={(text) => {
              setEditing(null);
              setNotice({ text, tone: 'success' });
            }}
            onCancel={() => setEditing(null)}
          />
        ) : (
          <p className="text-slate-700">Reviews are written by the companies that bought a service.</p>
        )}
      </div>

      <ConfirmDialog
        open={confirm !== null}
        title="Delete your review?"
        body={<p>{confirm?.reviewTitle}</p>}
        confirmLabel="Delete"
        busy={remove.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={async () => {
          if (!confirm) return;
          try {
            const res = await remove.mutateAsync(confirm._id);
            if (editing?._id === confirm._id) setEditing(null);
            setNotice({ text: res.message, tone: 'success' });
          } catch (err) {
            setNotice({ text: getErrorMessage(err), tone: 'error' });
          } finally {
            setConfirm(null);
          }
        }}
      />
    </section>
  );
}

/** The contract's review body without the product, which the page supplies. */
type ReviewValues = Omit<ReviewInput, 'productId'>;
type ReviewOutput = Omit<z.output<typeof reviewInput>, 'productId'>;

const resolver = lazyResolver<ReviewValues, ReviewOutput>(() =>
  import('./review-resolver').then((m) => m.reviewResolver),
);

function ReviewForm({
  productId,
  editing,
  onDone,
  onCancel,
}: {
  productId: string;
  editing: Review | null;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const save = useSaveReview(productId);
  const form = useForm<ReviewValues, unknown, ReviewOutput>({
    resolver,
    defaultValues: {
      reviewTitle: editing?.reviewTitle ?? '',
      review: editing?.review ?? '',
      status: editing?.status ?? 0,
    },
  });
  // A new review of the product, or the changes to one, kept while written (decision 2226).
  const clearDraft = useFormDraft(editing ? `review-edit:${editing._id}` : `review:${productId}`, form, [
    'reviewTitle',
    'review',
  ]);

  const submit = form.handleSubmit(async (body) => {
    try {
      const res = await save.mutateAsync({ id: editing?._id, body: { ...body, productId } });
      clearDraft();
      onDone(res.message);
      if (!editing) form.reset({ reviewTitle: '', review: '', status: 0 });
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
        aria-label={editing ? 'Edit your review' : 'Write a review'}
      >
        <h3 className="text-lg font-semibold text-ink">{editing ? 'Edit your review' : 'Write a review'}</h3>
        <ReviewFormFields
          rating="status"
          titleFirst
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
