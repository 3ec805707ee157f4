import { TermsOfUse } from './terms';

/** /terms: the Terms of use as a page of its own (footer, links from the privacy policy). */
export default function TermsPage() {
  return (
    <article aria-labelledby="terms-title" className="mx-auto max-w-3xl px-4 py-8 text-slate-700">
      <h1 id="terms-title" className="heading-title mb-4 text-ink">
        Terms of use
      </h1>
      <TermsOfUse page />
    </article>
  );
}
