import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { usePublicConfig } from '@/lib/public-config';
import { FileUpload, type UploadedFile } from './file-upload';

const MB = 1024 * 1024;

// The layout (navbar, footer) loads the server's settings; the picker reads what they loaded.
function Layout() {
  usePublicConfig();
  return null;
}

function Harness() {
  const [file, setFile] = useState<UploadedFile | null>(null);
  return (
    <>
      <Layout />
      <FileUpload label="Upload a document" kind="document" value={file} onChange={setFile} />
    </>
  );
}

// Decision 2311: the web checks a picked file against the limits the server is configured with.
describe('FileUpload with the limits the server serves', () => {
  const sent: unknown[] = [];
  const fetchMock = vi.fn(async (url: string) =>
    String(url).includes('/api/public-config')
      ? new Response(
          JSON.stringify({
            supportPhone: '2348000000000',
            supportEmail: 'support@legalmarket.ng',
            paymentProvider: 'sandbox',
            socialLinks: [],
            uploadMaxBytes: { image: 1 * MB, document: 2 * MB },
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        )
      : new Response('{}', { status: 404 }),
  );
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal(
      'XMLHttpRequest',
      class {
        upload = { onprogress: null };
        open() {}
        setRequestHeader() {}
        send(body: unknown) {
          sent.push(body);
        }
        abort() {}
      },
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('refuses before sending a document past a server limit lower than the default', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    // The answer read and the state set.
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
    // 3 MB: under the default 10 MB, over the server's 2 MB.
    const scan = new File([new Uint8Array(3 * MB)], 'scan.pdf', { type: 'application/pdf' });
    await user.upload(screen.getByLabelText('Upload a document'), scan);
    expect(await screen.findByRole('alert')).toHaveTextContent('scan.pdf: The file is too large: the limit is 2 MB');
    expect(sent).toEqual([]);
  });
});
