/** Placeholder for a page whose issue has not landed yet; it sits behind the right guard. */
export function ComingSoon({ title, what }: { title: string; what: string }) {
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="mt-3 text-slate-600">{what}</p>
    </section>
  );
}
