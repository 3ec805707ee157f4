import { useId, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Tabs, tabPanelProps } from './tabs';

const TABS = [
  { id: 'pending', label: 'Pending' },
  { id: 'completed', label: 'Completed' },
  { id: 'cancelled', label: 'Cancelled' },
] as const;
type Tab = (typeof TABS)[number]['id'];

function Page() {
  const id = useId();
  const [tab, setTab] = useState<Tab>('pending');
  return (
    <>
      <Tabs id={id} label="Jobs" tabs={TABS} value={tab} onChange={setTab} />
      <div {...tabPanelProps(id, tab)}>{`${tab} jobs`}</div>
    </>
  );
}

const tab = (name: string) => screen.getByRole('tab', { name });

describe('Tabs (WAI-ARIA tabs pattern)', () => {
  it('links each tab to its panel and the panel to its tab', async () => {
    render(<Page />);
    const panel = screen.getByRole('tabpanel');
    expect(tab('Pending')).toHaveAttribute('aria-controls', panel.id);
    expect(panel).toHaveAttribute('aria-labelledby', tab('Pending').id);
    expect(panel).toHaveAccessibleName('Pending');
    await userEvent.click(tab('Completed'));
    const shown = screen.getByRole('tabpanel', { name: 'Completed' });
    expect(shown).toHaveTextContent('completed jobs');
    expect(tab('Completed')).toHaveAttribute('aria-controls', shown.id);
    // Each tab names its own panel, never another's.
    expect(new Set(TABS.map((t) => tab(t.label).getAttribute('aria-controls'))).size).toBe(3);
  });

  it('moves with the arrow keys, Home and End, the chosen tab the only tab stop', async () => {
    render(<Page />);
    await userEvent.tab();
    expect(tab('Pending')).toHaveFocus();
    const stops = () => TABS.map((t) => tab(t.label).tabIndex);
    expect(stops()).toEqual([0, -1, -1]);
    await userEvent.keyboard('{ArrowRight}');
    expect(tab('Completed')).toHaveFocus();
    expect(tab('Completed')).toHaveAttribute('aria-selected', 'true');
    expect(stops()).toEqual([-1, 0, -1]);
    await userEvent.keyboard('{End}');
    expect(tab('Cancelled')).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}');
    expect(tab('Pending')).toHaveFocus();
    await userEvent.keyboard('{ArrowLeft}');
    expect(tab('Cancelled')).toHaveFocus();
    await userEvent.keyboard('{Home}');
    expect(tab('Pending')).toHaveFocus();
    expect(screen.getByRole('tabpanel', { name: 'Pending' })).toHaveTextContent('pending jobs');
    // Tab leaves the list for the panel's content, not the next tab.
    await userEvent.tab();
    expect(document.activeElement?.getAttribute('role')).not.toBe('tab');
  });

  it('names no panel when the tabs control none (a sort order)', () => {
    render(<Tabs label="Sort jobs" tabs={TABS} value="pending" onChange={() => {}} />);
    expect(tab('Pending')).not.toHaveAttribute('aria-controls');
  });
});
