import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { REMUNERATION_ORDER_MAX_BYTES } from '@legalmarket/contracts/admin';
import { setSession } from '@/lib/session';
import { renderPage } from '@/test/render';
import AdminRemunerationOrderPage from './remuneration-order-page';

/** XMLHttpRequest as uploadWithProgress uses it, answering `status` with `body`; records what was sent. */
function fakeXhr(status: number, body: unknown) {
  const sent: Array<{ method: string; url: string; headers: Record<string, string>; body: unknown }> = [];
  class Xhr {
    status = 0;
    responseText = '';
    upload = { onprogress: null as ((e: ProgressEvent) => void) | null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private req = { method: '', url: '', headers: {} as Record<string, string> };
    open(method: string, url: string) {
      this.req = { method, url, headers: {} };
    }
    setRequestHeader(k: string, v: string) {
      this.req.headers[k.toLowerCase()] = v;
    }
    abort() {}
    send(b: unknown) {
      sent.push({ ...this.req, body: b });
      setTimeout(() => {
        this.status = status;
        this.responseText = JSON.stringify(body);
        this.onload?.();
      }, 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', Xhr);
  return sent;
}

/** HEAD /api/remuneration-order: 404 until `published` is set. */
function headResponses(state: { published: boolean }) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) !== '/api/remuneration-order' || init?.method !== 'HEAD')
        throw new Error(`unexpected request: ${String(input)}`);
      return state.published
        ? new Response(null, { status: 200, headers: { 'content-length': String(3 * 1024 * 1024) } })
        : new Response(JSON.stringify({ status: 'fail', message: 'not uploaded' }), { status: 404 });
    }),
  );
}

const pdf = (name = 'order.pdf', type = 'application/pdf') => new File(['%PDF-1.4 ... %%EOF'], name, { type });

describe('/admin/remuneration-order', { timeout: 30_000 }, () => {
  it('says none is published, uploads the chosen PDF as the body, and then shows it published', async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    const state = { published: false };
    headResponses(state);
    const sent = fakeXhr(200, { status: 'success', message: 'Remuneration Order uploaded' });
    renderPage(<AdminRemunerationOrderPage />);
    expect(await screen.findByText(/No PDF has been uploaded yet/)).toBeInTheDocument();

    const file = pdf();
    await userEvent.upload(screen.getByLabelText('Remuneration Order (PDF)'), file);
    state.published = true;
    await userEvent.click(screen.getByRole('button', { name: 'Upload PDF' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Remuneration Order uploaded');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: 'PUT',
      url: '/api/remuneration-order',
      headers: { 'content-type': 'application/pdf', authorization: 'Bearer t' },
    });
    expect(sent[0].body).toBe(file);
    expect(await screen.findByRole('link', { name: 'Open the PDF' })).toBeInTheDocument();
    expect(screen.getByText(/3 MB/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Replace PDF' })).toBeInTheDocument();
  });

  it('refuses anything but a PDF before sending, and shows the server refusal', async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    headResponses({ published: true });
    const sent = fakeXhr(422, { status: 'fail', message: 'The file is damaged or incomplete.' });
    renderPage(<AdminRemunerationOrderPage />);
    await screen.findByRole('button', { name: 'Replace PDF' });
    const input = screen.getByLabelText('Remuneration Order (PDF)');

    await userEvent.upload(input, pdf('order.docx', 'application/msword'), { applyAccept: false });
    expect(screen.getByRole('alert')).toHaveTextContent('The file must be a PDF');
    await userEvent.click(screen.getByRole('button', { name: 'Replace PDF' }));
    expect(sent).toHaveLength(0);

    await userEvent.upload(input, pdf());
    await userEvent.click(screen.getByRole('button', { name: 'Replace PDF' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The file is damaged or incomplete.');
    expect(sent).toHaveLength(1);
  });

  it('asks for a file when none is chosen', async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    headResponses({ published: false });
    renderPage(<AdminRemunerationOrderPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Upload PDF' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose the PDF to upload');
    expect(screen.getByLabelText('Remuneration Order (PDF)')).toHaveFocus();
  });

  it("refuses a PDF over the contract's limit under the field, and clears that once a good one is chosen", async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    headResponses({ published: true });
    const sent = fakeXhr(200, { status: 'success', message: 'Remuneration Order uploaded' });
    renderPage(<AdminRemunerationOrderPage />);
    await screen.findByRole('button', { name: 'Replace PDF' });
    const input = screen.getByLabelText('Remuneration Order (PDF)');
    const large = pdf();
    Object.defineProperty(large, 'size', { value: REMUNERATION_ORDER_MAX_BYTES + 1 });

    await userEvent.upload(input, large);
    await userEvent.click(screen.getByRole('button', { name: 'Replace PDF' }));
    const message = 'The file is too large: the limit is 20 MB';
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(input).toHaveFocus();
    expect(sent).toHaveLength(0);

    await userEvent.upload(input, pdf());
    expect(screen.queryByText(message)).toBeNull();
    expect(input).not.toHaveAttribute('aria-invalid');
  });
});
