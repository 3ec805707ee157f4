import { vi } from 'vitest';

/**
 * Stubs XMLHttpRequest, which uploads go by (for their progress), with one that answers at once:
 * 201 with `uploaded`, the stored file's name and address.
 */
export function stubInstantUpload(uploaded: { fileName: string; url: string }) {
  class Xhr {
    upload = { onprogress: null };
    status = 201;
    responseText = JSON.stringify({ status: 'success', data: uploaded });
    onload: (() => void) | null = null;
    open() {}
    setRequestHeader() {}
    send() {
      queueMicrotask(() => this.onload?.());
    }
  }
  vi.stubGlobal('XMLHttpRequest', Xhr);
}
