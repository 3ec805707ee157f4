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

/** An upload `stubHeldUploads` holds until the test finishes it. */
export interface HeldUpload {
  onload: (() => void) | null;
  status: number;
  responseText: string;
}

/**
 * Stubs XMLHttpRequest with one that holds every upload: the list returned gets each one sent, for
 * the test to finish by hand with `finishUpload`, or to leave on its way.
 */
export function stubHeldUploads(): HeldUpload[] {
  const uploads: HeldUpload[] = [];
  class Xhr {
    upload = { onprogress: null };
    status = 0;
    responseText = '';
    onload: (() => void) | null = null;
    onabort: (() => void) | null = null;
    open() {}
    setRequestHeader() {}
    send() {
      uploads.push(this);
    }
    abort() {
      this.onabort?.();
    }
  }
  vi.stubGlobal('XMLHttpRequest', Xhr);
  return uploads;
}

/** Finishes a held upload with 201 and `uploaded`, the stored file's name and address. */
export function finishUpload(upload: HeldUpload, uploaded: { fileName: string; url: string }) {
  upload.status = 201;
  upload.responseText = JSON.stringify({ status: 'success', data: uploaded });
  upload.onload?.();
}
