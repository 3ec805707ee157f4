import { Fragment } from 'react';

/**
 * A file name or an e-mail address that may be longer than a phone's line: it may wrap after `@`, `.`,
 * `_`, `-` and `/` (a <wbr> after each), so "agreement-final.pdf" wraps as "agreement-|final.pdf" and never
 * inside a word as `break-all` did. A part still longer than the line falls back to the page's
 * overflow-wrap.
 */
export function BreakableText({ text, className }: { text: string; className?: string }) {
  const parts = text.split(/(?<=[@._\-/])/);
  return (
    <span className={className}>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {p}
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </span>
  );
}
