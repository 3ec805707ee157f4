/**
 * The headings of `root` in reading order as "h1 Title" lines, and those that skip a level (an h3
 * straight after an h1): a screen reader's list of headings then misses a level, as if a section were
 * lost.
 */
export function headingSkips(root: ParentNode = document) {
  const headings = [...root.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6')];
  const skips: string[] = [];
  let previous = 0;
  for (const h of headings) {
    const level = Number(h.tagName[1]);
    if (previous && level > previous + 1) skips.push(`h${previous} then ${h.tagName.toLowerCase()} ${h.textContent}`);
    previous = level;
  }
  return skips;
}
