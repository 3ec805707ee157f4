import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BUSY_MESSAGE, TIMED_OUT_MESSAGE, UPLOAD_STALL_MS } from '@/lib/http';
import { FileUpload, type UploadedFile } from './file-upload';

/** A stand-in XMLHttpRequest the test drives by hand. */
class FakeXhr {
  static last: FakeXhr | null = null;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  status = 0;
  responseText = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.last = this;
  }
  abort() {
    this.onabort?.();
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

function Harness() {
  const [file, setFile] = useState<UploadedFile | null>(null);
  return (
    <>
      <FileUpload label="Upload a document" kind="document" value={file} onChange={setFile} />
      <output data-testid="value">{file ? file.url : 'none'}</output>
    </>
  );
}

describe('FileUpload', () => {
  beforeEach(() => {
    FakeXhr.last = null;
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('uploads at once with a progress bar, then shows the name as a link and lets the user remove it', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByLabelText('Upload a document');
    await user.upload(input, new File(['%PDF-1.4'], 'brief.pdf', { type: 'application/pdf' }));
    const xhr = FakeXhr.last!;
    expect(xhr.url).toBe('/api/uploads?kind=document');
    expect((xhr.body!.get('file') as File).name).toBe('brief.pdf');

    xhr.upload.onprogress!({ lengthComputable: true, loaded: 40, total: 100 });
    expect(await screen.findByRole('progressbar', { name: 'Uploading brief.pdf' })).toHaveAttribute('value', '40');

    xhr.respond(201, { status: 'success', data: { fileName: 'brief.pdf', url: '/uploads/abc.pdf' } });
    expect(await screen.findByRole('link', { name: 'brief.pdf' })).toHaveAttribute('href', '/uploads/abc.pdf');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByTestId('value')).toHaveTextContent('/uploads/abc.pdf');

    await user.click(screen.getByRole('button', { name: 'Remove brief.pdf' }));
    expect(screen.getByTestId('value')).toHaveTextContent('none');
    expect(screen.getByLabelText('Upload a document')).toBeInTheDocument();
  });

  it("shows the server's reason when a file is refused", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.upload(screen.getByLabelText('Upload a document'), new File(['<html>'], 'x.pdf'));
    FakeXhr.last!.respond(415, { status: 'fail', message: 'The document must be a PDF' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The document must be a PDF');
    expect(screen.getByTestId('value')).toHaveTextContent('none');
  });

  it('refuses a document past 10 MB before sending it, and says why (decision 2291)', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const scan = new File(['%PDF-1.4'], 'contract-scan.pdf', { type: 'application/pdf' });
    Object.defineProperty(scan, 'size', { value: 10 * 1024 * 1024 + 1 });
    await user.upload(screen.getByLabelText('Upload a document'), scan);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'contract-scan.pdf: The file is too large: the limit is 10 MB',
    );
    expect(FakeXhr.last).toBeNull();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();

    const fits = new File(['%PDF-1.4'], 'contract.pdf', { type: 'application/pdf' });
    Object.defineProperty(fits, 'size', { value: 10 * 1024 * 1024 });
    await user.upload(screen.getByLabelText('Upload a document'), fits);
    expect(FakeXhr.last).not.toBeNull();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('refuses a file of another type before sending it (decision 2291)', async () => {
    // The picker's "All files" choice lets any file through its accept list.
    const user = userEvent.setup({ applyAccept: false });
    render(<Harness />);
    await user.upload(
      screen.getByLabelText('Upload a document'),
      new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'setup.exe: The document must be a PDF, a Word document (DOC or DOCX) or a PNG, JPEG or WebP picture',
    );
    expect(FakeXhr.last).toBeNull();
  });

  it('sends a file again after a lost connection without picking it again, but not a refused one', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.upload(
      screen.getByLabelText('Upload a document'),
      new File(['%PDF-1.4'], 'share-purchase-agreement.pdf', { type: 'application/pdf' }),
    );
    const first = FakeXhr.last!;
    first.upload.onprogress!({ lengthComputable: true, loaded: 70, total: 100 });
    first.onerror!();
    expect(await screen.findByRole('alert')).toHaveTextContent('Session timeout, please login again');

    await user.click(screen.getByRole('button', { name: 'Upload share-purchase-agreement.pdf again' }));
    const second = FakeXhr.last!;
    expect(second).not.toBe(first);
    expect((second.body!.get('file') as File).name).toBe('share-purchase-agreement.pdf');
    second.respond(503, { status: 'error', message: 'The service is busy. Please try again.' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The service is busy. Please try again.');

    await user.click(screen.getByRole('button', { name: 'Upload share-purchase-agreement.pdf again' }));
    FakeXhr.last!.respond(415, { status: 'fail', message: 'The document must be a PDF' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The document must be a PDF');
    expect(screen.queryByRole('button', { name: /again/ })).toBeNull();
  });

  it("offers to send again after a proxy's 408, as its words say (decision 2308)", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.upload(
      screen.getByLabelText('Upload a document'),
      new File(['%PDF-1.4'], 'board-minutes.pdf', { type: 'application/pdf' }),
    );
    // A proxy that gave up waiting for the request's body: an empty 408, nothing of ours.
    const first = FakeXhr.last!;
    first.status = 408;
    first.onload!();
    expect(await screen.findByRole('alert')).toHaveTextContent(BUSY_MESSAGE);
    await user.click(screen.getByRole('button', { name: 'Upload board-minutes.pdf again' }));
    expect(FakeXhr.last).not.toBe(first);
  });

  it('gives up an upload whose progress stalls, says so and offers to send it again (decision 2306)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      render(<Harness />);
      await user.upload(
        screen.getByLabelText('Upload a document'),
        new File(['%PDF-1.4'], 'board-resolution.pdf', { type: 'application/pdf' }),
      );
      const first = FakeXhr.last!;
      // Slow but moving for three minutes: still going.
      for (const loaded of [10, 20, 30]) {
        await act(async () => {
          await vi.advanceTimersByTimeAsync(UPLOAD_STALL_MS - 1_000);
          first.upload.onprogress!({ lengthComputable: true, loaded, total: 100 });
        });
      }
      expect(screen.queryByRole('alert')).toBeNull();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(UPLOAD_STALL_MS);
      });
      expect(await screen.findByRole('alert')).toHaveTextContent(TIMED_OUT_MESSAGE);
      await user.click(screen.getByRole('button', { name: 'Upload board-resolution.pdf again' }));
      expect(FakeXhr.last).not.toBe(first);
    } finally {
      vi.useRealTimers();
    }
  });

  it('tells a screen reader the progress in quarters, not at every step', async () => {
    const user = userEvent.setup();
    const { container } = render(<Harness />);
    const live = container.querySelector('[aria-live="polite"]')!;
    expect(live.textContent).toBe('');
    await user.upload(
      screen.getByLabelText('Upload a document'),
      new File(['%PDF-1.4'], 'brief.pdf', { type: 'application/pdf' }),
    );
    expect(live).toHaveTextContent('Uploading: 0%');
    const xhr = FakeXhr.last!;
    xhr.upload.onprogress!({ lengthComputable: true, loaded: 12, total: 100 });
    xhr.upload.onprogress!({ lengthComputable: true, loaded: 24, total: 100 });
    expect(await screen.findByRole('progressbar')).toHaveAttribute('value', '24');
    expect(live).toHaveTextContent('Uploading: 0%');
    xhr.upload.onprogress!({ lengthComputable: true, loaded: 61, total: 100 });
    await vi.waitFor(() => expect(live).toHaveTextContent('Uploading: 50%'));
    expect(container.querySelectorAll('[aria-live]')).toHaveLength(1);
  });

  it('says when the upload is done, and takes focus back to the picker when it is cancelled', async () => {
    const user = userEvent.setup();
    const { container } = render(<Harness />);
    const live = container.querySelector('[aria-live="polite"]')!;
    await user.upload(
      screen.getByLabelText('Upload a document'),
      new File(['%PDF-1.4'], 'first-draft.pdf', { type: 'application/pdf' }),
    );
    await user.click(screen.getByRole('button', { name: 'Cancel upload' }));
    await vi.waitFor(() => expect(screen.getByLabelText('Upload a document')).toHaveFocus());
    expect(live).toHaveTextContent('Upload cancelled');
    expect(screen.getByTestId('value')).toHaveTextContent('none');

    await user.upload(
      screen.getByLabelText('Upload a document'),
      new File(['%PDF-1.4'], 'final-draft.pdf', { type: 'application/pdf' }),
    );
    FakeXhr.last!.respond(201, { status: 'success', data: { fileName: 'final-draft.pdf', url: '/uploads/f.pdf' } });
    await vi.waitFor(() => expect(live).toHaveTextContent('Upload complete'));
  });
});
