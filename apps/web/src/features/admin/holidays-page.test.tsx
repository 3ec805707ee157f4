import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonFetch, renderPage, testQueryClient } from '@/test/render';
import HolidaysPage from './holidays-page';

function open() {
  const client = testQueryClient();
  client.setQueryData(['admin-holidays'], { holidays: [] });
  renderPage(<HolidaysPage />, { client });
}

describe('/admin/holidays: Add holiday (react-hook-form with the contract schema)', () => {
  it('puts the schema messages under their fields and clears each once it is fixed', async () => {
    open();
    await userEvent.click(screen.getByRole('button', { name: 'Add holiday' }));
    const date = screen.getByLabelText('Date');
    const name = screen.getByLabelText('Name');
    expect(await screen.findByText('Please enter the date as YYYY-MM-DD')).toBeVisible();
    expect(date).toHaveAttribute('aria-invalid', 'true');
    expect(date).toHaveAccessibleDescription('Please enter the date as YYYY-MM-DD');
    expect(name).toHaveAccessibleDescription('Please enter the holiday name');

    await userEvent.type(name, '   ');
    expect(name).toHaveAccessibleDescription('Please enter the holiday name');
    await userEvent.type(name, 'Eid al-Fitr');
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Please enter the holiday name')).toBeNull();
    await userEvent.type(date, '2027-03-20');
    expect(date).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Please enter the date as YYYY-MM-DD')).toBeNull();
  });

  it('sends the date and the trimmed name, shows the new list and empties the form', async () => {
    const api = jsonFetch({
      'POST /api/admin/holidays': () => ({ body: { holidays: [{ date: '2027-03-20', name: 'Eid al-Fitr' }] } }),
    });
    vi.stubGlobal('fetch', api.fn);
    open();
    await userEvent.type(screen.getByLabelText('Date'), '2027-03-20');
    await userEvent.type(screen.getByLabelText('Name'), '  Eid al-Fitr  ');
    await userEvent.click(screen.getByRole('button', { name: 'Add holiday' }));
    expect(await screen.findByText('Eid al-Fitr', { exact: false })).toBeVisible();
    expect(JSON.parse(String(api.calls[0]?.init?.body))).toEqual({ date: '2027-03-20', name: 'Eid al-Fitr' });
    expect(screen.getByLabelText('Name')).toHaveValue('');
  });

  it("shows the server's refusal", async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'POST /api/admin/holidays': () => ({
          status: 400,
          body: { status: 'fail', message: 'Please enter a real date between 2000 and 2099' },
        }),
      }).fn,
    );
    open();
    await userEvent.type(screen.getByLabelText('Date'), '2027-03-20');
    await userEvent.type(screen.getByLabelText('Name'), 'Eid');
    await userEvent.click(screen.getByRole('button', { name: 'Add holiday' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a real date between 2000 and 2099');
  });
});

describe('/admin/holidays: Remove when another admin removed it first', () => {
  it('closes the dialog, says why and reloads the list instead of leaving the stale row', async () => {
    const api = jsonFetch({
      'DELETE /api/admin/holidays/2027-03-20': () => ({
        status: 404,
        body: { status: 'fail', message: 'No holiday on that date' },
      }),
      'GET /api/admin/holidays': () => ({ body: { holidays: [] } }),
    });
    vi.stubGlobal('fetch', api.fn);
    const client = testQueryClient();
    client.setQueryData(['admin-holidays'], { holidays: [{ date: '2027-03-20', name: 'Eid al-Fitr' }] });
    renderPage(<HolidaysPage />, { client });
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this holiday?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    // The refusal is read on the page, not hidden behind a dialog that makes the page inert.
    expect(await screen.findByRole('alert')).toHaveTextContent('No holiday on that date');
    expect(screen.queryByRole('dialog', { name: 'Remove this holiday?' })).toBeNull();
    expect(await screen.findByText('No holidays: only weekends are skipped.')).toBeVisible();
    expect(api.calls.map((c) => c.method)).toEqual(['DELETE', 'GET']);
  });
});

describe('/admin/holidays: Add holiday on a date already listed', () => {
  it('says the date was renamed, naming the old and new names', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'POST /api/admin/holidays': () => ({ body: { holidays: [{ date: '2027-06-12', name: 'June 12' }] } }),
      }).fn,
    );
    const client = testQueryClient();
    client.setQueryData(['admin-holidays'], { holidays: [{ date: '2027-06-12', name: 'Democracy Day' }] });
    renderPage(<HolidaysPage />, { client });
    await userEvent.type(screen.getByLabelText('Date'), '2027-06-12');
    await userEvent.type(screen.getByLabelText('Name'), 'June 12');
    await userEvent.click(screen.getByRole('button', { name: 'Add holiday' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'was already listed as Democracy Day: it is now named June 12.',
    );
  });
});

describe('/admin/holidays: the renamed notice after a later Remove', () => {
  it('clears the "renamed" notice once a holiday is removed, so it does not describe a list gone since', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'POST /api/admin/holidays': () => ({ body: { holidays: [{ date: '2027-06-12', name: 'June 12' }] } }),
        'DELETE /api/admin/holidays/2027-06-12': () => ({ body: { holidays: [] } }),
      }).fn,
    );
    const client = testQueryClient();
    client.setQueryData(['admin-holidays'], { holidays: [{ date: '2027-06-12', name: 'Democracy Day' }] });
    renderPage(<HolidaysPage />, { client });
    await userEvent.type(screen.getByLabelText('Date'), '2027-06-12');
    await userEvent.type(screen.getByLabelText('Name'), 'June 12');
    await userEvent.click(screen.getByRole('button', { name: 'Add holiday' }));
    expect(await screen.findByRole('status')).toHaveTextContent('it is now named June 12.');

    await userEvent.click(screen.getByRole('button', { name: /Remove/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this holiday?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('No holidays: only weekends are skipped.')).toBeVisible();
    expect(screen.queryByText(/it is now named June 12/)).toBeNull();
  });
});
