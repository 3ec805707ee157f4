import { CalendarClock, Star } from 'lucide-react';

/** "Delivered within 10 working days". */
export const deliveryText = (days: number) => `Delivered within ${days} working ${days === 1 ? 'day' : 'days'}`;

/** A product's rating in one line: a star, the average and the count, or "No reviews yet". */
export function ProductRating({
  average,
  count,
  className = '',
}: {
  average: number | null;
  count: number;
  className?: string;
}) {
  if (average === null || count === 0)
    return <span className={`text-sm text-slate-600 ${className}`}>No reviews yet</span>;
  return (
    <span className={`inline-flex items-center gap-1 text-sm text-slate-700 ${className}`}>
      <Star aria-hidden className="size-4 fill-accent text-amber-600" strokeWidth={1.5} />
      <span>
        <span className="font-semibold text-ink">{average.toFixed(1)}</span>
        <span className="sr-only"> out of 5 stars</span> ({count} {count === 1 ? 'review' : 'reviews'})
      </span>
    </span>
  );
}

/** The delivery time with its calendar icon. */
export function DeliveryTime({ days, className = '' }: { days: number; className?: string }) {
  return (
    <span className={`inline-flex items-center gap-1 text-sm text-slate-700 ${className}`}>
      <CalendarClock aria-hidden className="size-4 shrink-0 text-brand" />
      {deliveryText(days)}
    </span>
  );
}
