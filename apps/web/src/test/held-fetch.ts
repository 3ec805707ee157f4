import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonFetch } from './render';

/** Picks the requests a heldFetch stub holds. */
export type Holds = (request: { method: string; url: URL }) => boolean;

/**
 * A jsonFetch stub on a slow phone network: each request `holds` picks waits until the test calls
 * `release`, then is answered by `routes` like any other. Tests of sends that outlive the dialog or page
 * that made them share it. `sent` lists the path of each held request as it went out; `release` lets the
 * latest held one answer, and does nothing while none is held.
 */
export function heldFetch(routes: Parameters<typeof jsonFetch>[0], holds: Holds) {
  const stub = jsonFetch(routes);
  const sent: string[] = [];
  let release: () => void = () => undefined;
  const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (holds({ method: init?.method ?? 'GET', url })) {
      sent.push(url.pathname);
      await new Promise<void>((resolve) => (release = resolve));
    }
    return stub.fn(input, init);
  };
  return { fn, calls: stub.calls, sent, release: () => release() };
}

/**
 * Sends `text` from the dialog `first` opens, closes that dialog while the send is held, and opens the
 * one `second` opens: where the held send's answer must not land. Returns the second dialog.
 */
export async function sendThenOpenAnother(first: HTMLElement, second: HTMLElement, field: string, text: string) {
  await userEvent.click(first);
  const dialog = await screen.findByRole('dialog');
  await userEvent.type(within(dialog).getByLabelText(field), text);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
  await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
  await userEvent.click(second);
  return screen.findByRole('dialog');
}
