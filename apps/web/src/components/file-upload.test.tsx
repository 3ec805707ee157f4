import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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
});
