import { useSyncExternalStore } from 'react';
import type { CartChangeResponse, CartView, MoveReservationsInput } from '@legalmarket/contracts/commerce';
import { api } from '@/lib/http';
import { newReservationId, readReservedItems, removeReservedItems, writeReservedItems } from './reserved-items';

/** What the last move said (the cart page shows it once); listeners re-render on a new one. */
let lastMove: { message: string; notes: string[]; cart: CartView } | null = null;
const listeners = new Set<() => void>();
const publish = (v: typeof lastMove) => {
  lastMove = v;
  listeners.forEach((l) => l());
};

/** One move at a time in this tab; another tab may move the same reservations: the server moves each id once. */
let inFlight: Promise<CartChangeResponse | null> | null = null;

/**
 * POST /api/cart/reservations with this browser's reservations, then takes out the ones sent
 * (decision 1800). Ids are given and stored before sending, so a retry sends the same ones.
 */
export function moveReservations(): Promise<CartChangeResponse | null> {
  if (inFlight) return inFlight;
  const stored = readReservedItems();
  if (!stored.length) return Promise.resolve(null);
  const items = stored.map((i) => (i.reservationId ? i : { ...i, reservationId: newReservationId() }));
  if (items.some((i, k) => i !== stored[k])) writeReservedItems(items);
  const body: MoveReservationsInput = {
    items: items.slice(0, 50).map((i) => ({
      reservationId: i.reservationId!,
      productId: i.productId,
      quantity: i.quantity,
      ...(i.detail ? { detail: i.detail } : {}),
      ...(i.file ? { file: i.file, ...(i.fileName ? { fileName: i.fileName } : {}) } : {}),
    })),
  };
  inFlight = api<CartChangeResponse>('/api/cart/reservations', { method: 'POST', body })
    .then((res) => {
      removeReservedItems(new Set(body.items.map((i) => i.reservationId)));
      publish({ message: res.message, notes: res.notes, cart: res.data[0] ?? { products: [], bill: 0 } });
      return res;
    })
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

/** The last move's message and notes, until dismissed. */
export function useLastMove() {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => lastMove,
    () => null,
  );
}

export const dismissLastMove = () => publish(null);

/** Whether this browser holds reservations (a company logging in goes to its cart to find them). */
export const hasReservations = () => readReservedItems().length > 0;
