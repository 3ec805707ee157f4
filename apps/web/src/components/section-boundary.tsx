import { Component, type ReactNode } from 'react';

/** An error boundary per page section: one broken part never blanks the whole page. */
export class SectionBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    if (this.state.error)
      return (
        <div
          role="alert"
          className="mx-auto my-10 max-w-md rounded-lg border border-red-200 bg-red-50 p-6 text-center text-red-800"
        >
          <p className="font-semibold">This part of the page could not be shown.</p>
          <p className="mt-1 text-sm">Please reload the page. If it keeps happening, contact support.</p>
          <button
            type="button"
            className="mt-3 min-h-11 rounded-md px-4 font-semibold underline"
            onClick={() => window.location.reload()}
          >
            Reload
          </button>
        </div>
      );
    return this.props.children;
  }
}
