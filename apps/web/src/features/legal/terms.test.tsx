import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { TERMS_VERSION } from '@legalmarket/contracts/privacy';
import { PrivacyPolicy } from './terms';

describe('privacy policy', () => {
  // Decision 0860: verified lawyers read an open job's brief and its files' names to apply; only the
  // assigned lawyer opens the files. The policy people accept must say what the product does.
  it('tells companies that verified lawyers read the brief, and only the assigned one opens files', () => {
    const { container } = render(
      <MemoryRouter>
        <PrivacyPolicy page />
      </MemoryRouter>,
    );
    const text = container.textContent?.replace(/\s+/g, ' ') ?? '';
    expect(text).not.toMatch(/not assigned to your job never see your brief/);
    expect(text).toMatch(/verified lawyers read its brief/);
    expect(text).toMatch(/never open the files or the job's conversation unless they are assigned to it/);
    expect(text).toContain(`Version ${TERMS_VERSION}`);
  });
});
