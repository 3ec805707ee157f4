import { useEffect } from 'react';
import { useSession } from '@/lib/use-session';
import { RESERVED_KEY } from './reserved-read';

/**
 * Moves a visitor's reservations into the cart whenever a company is signed in here and some are
 * stored: after a log-in, in another tab, on a reload (decision 1800). The move itself loads only then.
 */
export function useMoveReservations() {
  const session = useSession();
  const isCompany = session?.userType === 'company';
  const userId = session?.userId;
  useEffect(() => {
    if (!isCompany || !userId || !localStorage.getItem(RESERVED_KEY)) return;
    import('./move-reservations')
      .then((m) => m.moveReservations())
      .catch(() => {
        // Kept in this browser; the next page load or log-in tries again.
      });
  }, [isCompany, userId]);
}
