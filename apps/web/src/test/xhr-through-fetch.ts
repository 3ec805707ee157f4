import { vi } from 'vitest';

/** What a test does with one upload sent through `xhrThroughFetch`. */
export interface SentUpload {
  method: string;
  url: string;
  /** Tells the page that `loaded` of `total` bytes have gone up. */
  progress(loaded: number, total: number): void;
}

/**
 * Stands in for XMLHttpRequest, as uploadWithProgress uses it, by the test's fetch stub: each upload is
 * sent as `fetch(url, { method, headers, body })` when it goes out, so the stubs, their recorded calls
 * and their held answers (heldFetch) serve uploads as they serve api() calls. A fetch that throws is a
 * dropped line. `sent` lists each upload as it goes out, for the test to move its progress.
 */
export function xhrThroughFetch() {
  const sent: SentUpload[] = [];
  class FetchXhr {
    status = 0;
    responseText = '';
    upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
      onprogress: null,
    };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private method = 'GET';
    private url = '';
    private headers: Record<string, string> = {};
    private aborted = false;
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    abort() {
      this.aborted = true;
      this.onabort?.();
    }
    send(body?: BodyInit | null) {
      sent.push({
        method: this.method,
        url: this.url,
        progress: (loaded, total) => this.upload.onprogress?.({ lengthComputable: true, loaded, total }),
      });
      // Looked up at send time: a test may stub fetch again after the page opened.
      void fetch(this.url, { method: this.method, headers: this.headers, body })
        .then((res) => res.text().then((text) => ({ status: res.status, text })))
        .then(
          ({ status, text }) => {
            if (this.aborted) return;
            this.status = status;
            this.responseText = text;
            this.onload?.();
          },
          () => {
            if (!this.aborted) this.onerror?.();
          },
        );
    }
  }
  vi.stubGlobal('XMLHttpRequest', FetchXhr);
  return { sent };
}
