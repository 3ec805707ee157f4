import { PrivacyPolicy } from './terms';

/** /privacy: the Privacy policy, naming the rights of the Nigeria Data Protection Act 2023 and how to use them. */
export default function PrivacyPage() {
  return (
    <article aria-labelledby="privacy-title" className="mx-auto max-w-3xl px-4 py-8 text-slate-700">
      <h1 id="privacy-title" className="heading-title mb-4 text-ink">
        Privacy policy
      </h1>
      <PrivacyPolicy page />
    </article>
  );
}
