import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSession } from '@/lib/session';
import { TIMED_OUT_MESSAGE } from '@/lib/http';
import { PdfDownload } from './pdf-download';

/** Records the file the browser was asked to save (jsdom does not download). */
function saved() {
  const files: string[] = [];
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    files.push(this.download);
  });
  return files;
}

describe('PdfDownload', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('fetches the PDF with the session token and saves it under the name the server gives', async () => {
    setSession({ userToken: 'tok', userType: 'company', userId: 'c1' });
    const files = saved();
    const fetchMock = vi.fn(
      async (_input: RequestInfo | URL, _init?: RequestInit) =>
        new Response('%PDF-1.7', {
          status: 200,
          headers: {
            'content-type': 'application/pdf',
            'content-disposition': 'attachment; filename="receipt-LM-1.pdf"',
          },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    render(
      <PdfDownload path="/api/orders/o1/receipt.pdf" filename="fallback.pdf" label="Receipt for payment LM-1">
        Receipt
      </PdfDownload>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Receipt for payment LM-1' }));
    expect(fetchMock).toHaveBeenCalledWith('/api/orders/o1/receipt.pdf', { headers: { authorization: 'Bearer tok' } });
    await vi.waitFor(() => expect(files).toEqual(['receipt-LM-1.pdf']));
  });

  it("shows the server's refusal and saves nothing", async () => {
    setSession({ userToken: 'tok', userType: 'company', userId: 'c1' });
    const files = saved();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({ status: 'fail', message: 'We could not find this payment. Please try again.' }),
            {
              status: 404,
            },
          ),
      ),
    );
    render(
      <PdfDownload path="/api/orders/o2/receipt.pdf" filename="r.pdf" label="Receipt for payment LM-2">
        Receipt
      </PdfDownload>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Receipt for payment LM-2' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not find this payment. Please try again.');
    expect(files).toEqual([]);
  });
});

describe('PdfDownload on a dead line (decision 2306)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives up after a minute with no answer, says to try again and lets the button be pressed again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const files = saved();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    );
    render(
      <PdfDownload path="/api/orders/o3/receipt.pdf" filename="r.pdf" label="Receipt for payment LM-3">
        Receipt
      </PdfDownload>,
    );
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const button = screen.getByRole('button', { name: 'Receipt for payment LM-3' });
    await user.click(button);
    expect(button).toBeDisabled();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await screen.findByRole('alert')).toHaveTextContent(TIMED_OUT_MESSAGE);
    expect(button).toBeEnabled();
    expect(files).toEqual([]);
  });
});
