import type { JobAction } from '@legalmarket/contracts';

/** A job notification's text (and its e-mail's subject): `who` is the person named, as plainName wrote it. */
export function recipientsText(action: JobAction, who: string, product: string, due: Date): string {
  const d = due.toLocaleDateString('en-NG', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'Africa/Lagos',
  });
  switch (action) {
    case 'paid':
      return `New job: ${product} for ${who}`;
    case 'apply':
      return `${who} applied for ${product}`;
    case 'assign':
      return `${product} is assigned to ${who}`;
    case 'request_details':
      return `${who} asked for more details on ${product}`;
    case 'give_details':
      return `${who} added details to ${product}`;
    case 'add_details':
      return `An administrator added details to ${product}`;
    case 'message':
      return `${who} sent a message on ${product}`;
    case 'deliver':
    case 'deliver_again':
      return `${who} delivered ${product}`;
    case 'request_changes':
      return `${who} asked for changes to ${product}`;
    case 'accept':
      return `${who} accepted the work on ${product}`;
    case 'auto_accept':
      return `${product} was accepted automatically`;
    case 'complete':
      return `${product} was marked completed`;
    case 'cancel':
      return `${product} was cancelled`;
    case 'remind_due':
      return `${product} is due on ${d}`;
    case 'remind_late':
      return `${product} is late: it was due on ${d}`;
    case 'remind_company':
      return `${product} was delivered: please accept it or ask for changes`;
  }
}

/**
 * The replaced lawyer's notification when an admin passes their job on (decision 2316), stored under the
 * `assign` event. It names nobody, and holds none of the `assign` text's words, so an erasure of the new
 * lawyer (whom that event names) never takes part of it for a name.
 */
export const replacedText = (product: string) => `${product} was passed to another lawyer`;

const NAME = '\u0000';
const PRODUCT = '\u0001';

/**
 * Where an action's text names its person: first, then `words`, then the product; or `head`, the
 * product, `words`, then the name last. Null when the text names nobody.
 */
function placeOfName(action: string): { first: boolean; head: string; words: string } | null {
  const text = recipientsText(action as JobAction, NAME, PRODUCT, new Date(0)) as string | undefined;
  const name = text?.indexOf(NAME) ?? -1;
  const product = text?.indexOf(PRODUCT) ?? -1;
  if (!text || name < 0 || product < 0) return null;
  if (name === 0 && text.endsWith(PRODUCT)) return { first: true, head: '', words: text.slice(1, product) };
  if (name === text.length - 1)
    return { first: false, head: text.slice(0, product), words: text.slice(product + 1, name) };
  return null;
}

/**
 * Where a stored notification's text names its person, as [start, end). The name is looked for only
 * where the action's text puts it, never searched for (a company called "Law" must not match a product
 * called "Lawful"): the name as it reads now; else, renamed since, what stands beside the product's name
 * as it reads now; else up to the first (or after the last) of the words between them.
 */
export function nameInNotification(
  text: string,
  action: string,
  name: string,
  product: string,
): [number, number] | null {
  const place = placeOfName(action);
  if (!place) return null;
  const { words } = place;
  if (place.first) {
    if (text.startsWith(name + words)) return [0, name.length];
    const tail = words + product;
    const end = text.length > tail.length && text.endsWith(tail) ? text.length - tail.length : text.indexOf(words);
    return end < 0 ? null : [0, end];
  }
  if (text.endsWith(words + name)) return [text.length - name.length, text.length];
  const lead = place.head + product + words;
  const last = text.lastIndexOf(words);
  const start = text.length > lead.length && text.startsWith(lead) ? lead.length : last < 0 ? -1 : last + words.length;
  return start < 0 ? null : [start, text.length];
}
