import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonFetch } from './render';

/** Picks the requests a heldFetch stub holds; asked as each request goes out, before its route runs. */
export type Holds = (request: { method: string; url: URL }) => boolean;

/**
 * A jsonFetch stub on a slow phone network: every request reaches `routes` as it goes out, so a route's
 * counters count sends, duplicates included; the answer of each request `holds` picks waits until the
 * test lets it through. Tests of sends that outlive the dialog or page that made them share it.
 * `sent` lists the path of each held request as it went out; `release` delivers the oldest answer still
 * held (and throws while none is), `releaseAll` every one, oldest first.
 */
export function heldFetch(routes: Parameters<typeof jsonFetch>[0], holds: Holds) {
  const stub = jsonFetch(routes);
  const sent: string[] = [];
  const waiting: Array<() => void> = [];
  const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const held = holds({ method: init?.method ?? 'GET', url });
    const response = stub.fn(input, init);
    if (!held) return response;
    sent.push(url.pathname);
    // A route that throws (a dropped line) fails the request only when its answer is let through.
    response.catch(() => undefined);
    await new Promise<void>((resolve) => waiting.push(resolve));
    return response;
  };
  // A release while nothing is held lets nothing through, and the request sent after it then waits for
  // good: the test would fail later and far from its cause, so it fails here.
  const release = () => {
    const next = waiting.shift();
    if (!next) throw new Error('heldFetch: release() with no request held; wait for the request to go out first');
    next();
  };
  // Nothing held is no fault here: "let whatever is still waiting through", as a test's clean-up asks.
  const releaseAll = () => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  return { fn, calls: stub.calls, sent, release, releaseAll };
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
