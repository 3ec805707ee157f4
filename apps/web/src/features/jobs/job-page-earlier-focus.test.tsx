import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { JobEventResponse } from '@legalmarket/contracts/job-lifecycle';
import { companyJobPage, companyOnJobPage, renderJobPage } from './job-page-test-kit';

const event = (id: number): JobEventResponse => ({
  _id: String(id),
  action: 'message',
  actor: { _id: 'lawyer-1', name: 'Tunde Bakare', role: 'lawyer' },
  note: `Message ${id}`,
  files: [],
  fromStage: 'in_progress',
  toStage: 'in_progress',
  createdAt: '2026-11-20T10:00:00.000Z',
});

const data = companyJobPage('in_progress', { events: [event(60), event(61)], earlier: true, lastReadEventId: '61' });

describe('/jobs/{id} Show earlier messages and focus', { timeout: 30_000 }, () => {
  it('moves focus to the oldest message shown, the button being gone once none remain', async () => {
    companyOnJobPage(data, {
      routes: {
        'GET /job-api/jobs/job-1/events': () => ({
          body: { stage: 'in_progress', actions: ['message'], events: [event(58), event(59)], earlier: false },
        }),
      },
    });
    renderJobPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Show earlier messages' }));
    await screen.findByText('Message 58');
    expect(screen.queryByRole('button', { name: 'Show earlier messages' })).toBeNull();
    expect(document.activeElement).toHaveTextContent('Message 58');
    expect(document.activeElement?.tagName).toBe('LI');
  });
});
