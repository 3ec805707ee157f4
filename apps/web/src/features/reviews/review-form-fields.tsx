import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { starLabel } from '@legalmarket/contracts/format';
import { Button } from '@/components/button';
import { Field, FormError, TextArea } from '@/components/field';
import { StarsInput } from '@/components/stars';
import { getErrorMessage } from '@/lib/http';

/** The fields every review form has; the stars are `status` on a product (the spec's name), `stars` on a lawyer. */
interface ReviewFieldValues {
  reviewTitle: string;
  review: string;
  status?: unknown;
  stars?: unknown;
}

/**
 * A review form below its heading: rating, title and text with the messages of the schema the form
 * validates with, the save error, and Submit review (Save changes and Cancel while editing). It reads
 * the form from the `FormProvider` around it, so this file carries no zod (decision 1540).
 */
export function ReviewFormFields({
  rating,
  titleFirst = false,
  showStarLabel = false,
  editing,
  saving,
  saveError,
  onCancel,
}: {
  rating: 'status' | 'stars';
  /** The product form asks for the title before the stars. */
  titleFirst?: boolean;
  /** The chosen stars' word ("Poor") under them. */
  showStarLabel?: boolean;
  editing: boolean;
  saving: boolean;
  saveError: unknown;
  onCancel: () => void;
}) {
  const { register, control, formState } = useFormContext<ReviewFieldValues>();
  const { errors } = formState;
  const stars = Number(useWatch({ control, name: rating })) || 0;
  const title = (
    <Field label="Title" maxLength={120} error={errors.reviewTitle?.message} {...register('reviewTitle')} />
  );
  return (
    <>
      {titleFirst && title}
      <Controller
        control={control}
        name={rating}
        render={({ field }) => (
          <StarsInput
            // Lets the form focus the stars when they are the first field in error.
            ref={field.ref}
            label="Rating"
            value={Number(field.value) || 0}
            onChange={field.onChange}
            error={errors[rating]?.message}
          />
        )}
      />
      {showStarLabel && stars > 0 && <p className="-mt-3 text-sm text-slate-700">{starLabel(stars)}</p>}
      {!titleFirst && title}
      <TextArea label="Your review" maxLength={2000} error={errors.review?.message} {...register('review')} />
      <FormError message={saveError ? getErrorMessage(saveError) : null} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={saving || formState.isSubmitting}>
          {editing ? 'Save changes' : 'Submit review'}
        </Button>
        {editing && (
          <Button variant="secondary" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
        )}
      </div>
    </>
  );
}
