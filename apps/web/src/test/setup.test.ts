import { expect, it } from 'vitest';

// The setup's toBeDisabled/toBeEnabled read aria-disabled for the shared Button (decision 2354) only.
it('counts aria-disabled as disabled on a button, and nowhere else', () => {
  const button = document.createElement('button');
  button.setAttribute('aria-disabled', 'true');
  expect(button).toBeDisabled();
  expect(button).not.toBeEnabled();
  // A field marked aria-disabled still takes typing: it is not disabled as a person meets it.
  const input = document.createElement('input');
  input.setAttribute('aria-disabled', 'true');
  expect(input).not.toBeDisabled();
  expect(input).toBeEnabled();
  const link = document.createElement('a');
  link.href = '/x';
  link.setAttribute('aria-disabled', 'true');
  expect(link).not.toBeDisabled();
});
