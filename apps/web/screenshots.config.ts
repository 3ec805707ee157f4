import { defineConfig, devices } from '@playwright/test';
import journeys from './playwright.config';

/**
 * `npm run screenshots`: every page for each role on a 360×740 phone and a 1280×800 laptop, written
 * to screenshots/ (git-ignored) with an index.html to look at the whole product in a minute.
 */
export default defineConfig({
  ...journeys,
  testDir: './screenshots',
  timeout: 600_000,
  reporter: [['list']],
  outputDir: '../../test-results/screenshots-artifacts',
  projects: [
    {
      name: 'phone',
      use: { ...devices['Pixel 5'], viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true },
    },
    { name: 'laptop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } },
  ],
});
