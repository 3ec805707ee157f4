import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, HttpError, uploadWithProgress } from '@/lib/http';
import { adminKeys } from './keys';

export const REMUNERATION_ORDER_URL = '/api/remuneration-order';

/** A UI shape: what a HEAD request tells (the answer has no body, so no contract schema). */
interface PublishedOrder {
  /** Whether visitors see a PDF on /legal-practitioners-remuneration-order. */
  available: boolean;
  /** Its size in bytes, when known. */
  size: number | null;
}

/** HEAD /api/remuneration-order: is a PDF published, and how large is it? */
async function getPublishedOrder(): Promise<PublishedOrder> {
  let size: number | null = null;
  try {
    await api(REMUNERATION_ORDER_URL, {
      method: 'HEAD',
      onHeaders: (h) => {
        const n = Number(h.get('content-length'));
        size = Number.isFinite(n) && n > 0 ? n : null;
      },
    });
    return { available: true, size };
  } catch (err) {
    if (err instanceof HttpError && err.status === 404) return { available: false, size: null };
    throw err;
  }
}

export const usePublishedOrder = () =>
  useQuery({ queryKey: adminKeys.remunerationOrder(), queryFn: getPublishedOrder });

/** PUT /api/remuneration-order with the PDF as the body; replaces the published one. */
export function useUploadOrder() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { file: File; onProgress: (fraction: number) => void }) =>
      uploadWithProgress<{ status: string; message: string }>(REMUNERATION_ORDER_URL, v.file, v.onProgress, {
        method: 'PUT',
        contentType: 'application/pdf',
      }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: adminKeys.remunerationOrder() });
      void qc.invalidateQueries({ queryKey: adminKeys.dashboard() });
    },
  });
}
