import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { Chart, chartSummary, niceMax, polyline, tickText, type Point } from './Chart';

const money = (n: number) => `$${n.toFixed(2)}`;
const points: Point[] = [
  { label: 'Nov 20, 2026', value: 0, compare: { label: 'Nov 20, 2025', value: 4 } },
  { label: 'Nov 21, 2026', value: 56.1, compare: { label: 'Nov 21, 2025', value: 10 } },
  { label: 'Nov 22, 2026', value: 39, compare: { label: 'Nov 22, 2025', value: 0 } },
];

const announced = () => document.querySelector('[data-chart-announce]')!.textContent;

describe('a chart', () => {
  it('is one Tab stop whose arrow keys move between the points, each one said', async () => {
    render(
      <>
        <button type="button">Before</button>
        <Chart title="Net sales" points={points} format={money} compareName="Previous year" />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Before' }));
    await userEvent.tab();
    const plot = screen.getByRole('group', { name: /^Net sales\. Use the arrow keys/ });
    expect(plot).toHaveFocus();
    expect(announced()).toBe('');
    await userEvent.keyboard('{ArrowRight}');
    expect(announced()).toBe('Nov 20, 2026: $0.00; previous year Nov 20, 2025: $4.00');
    await userEvent.keyboard('{ArrowRight}');
    expect(announced()).toBe('Nov 21, 2026: $56.10; previous year Nov 21, 2025: $10.00');
    await userEvent.keyboard('{End}');
    expect(announced()).toMatch(/^Nov 22, 2026: \$39\.00/);
    // The last point stays the last.
    await userEvent.keyboard('{ArrowRight}');
    expect(announced()).toMatch(/^Nov 22, 2026/);
    await userEvent.keyboard('{Home}');
    expect(announced()).toMatch(/^Nov 20, 2026/);
    await userEvent.keyboard('{ArrowLeft}');
    expect(announced()).toMatch(/^Nov 20, 2026/);
    await userEvent.keyboard('{Escape}');
    expect(announced()).toBe('');
    // Leaving the chart forgets the point.
    await userEvent.keyboard('{ArrowLeft}');
    expect(announced()).toMatch(/^Nov 22, 2026/);
    fireEvent.blur(plot);
    expect(announced()).toBe('');
  });

  it('has a summary and a table of its numbers, and no accessibility violation', async () => {
    const { container } = render(<Chart title="Net sales" points={points} format={money} compareName="Previous year" />);
    expect(screen.getByText('Net sales over 3 intervals: $95.10 in all, highest $56.10 on Nov 21, 2026.')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Net sales' });
    expect(table.querySelectorAll('tbody tr')).toHaveLength(3);
    expect(screen.getByRole('columnheader', { name: 'Previous year' })).toBeInTheDocument();
    expect(screen.getByRole('rowheader', { name: 'Nov 21, 2026' }).parentElement!.textContent).toBe('Nov 21, 2026$56.10$10.00 (Nov 21, 2025)');
    screen.getByRole('group', { name: /^Net sales/ }).focus();
    await userEvent.keyboard('{ArrowRight}');
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });

  it('draws bars by kind, and says when there is nothing', () => {
    expect(chartSummary('Stock', [{ label: 'In stock', value: 4 }, { label: 'Out of stock', value: 1 }], String, 'bar')).toBe('Stock: In stock 4, Out of stock 1.');
    const { container } = render(<Chart title="Stock" kind="bar" points={[{ label: 'In stock', value: 4 }, { label: 'Out of stock', value: 1 }]} format={String} />);
    expect(container.querySelectorAll('rect.an-chart__bar')).toHaveLength(2);
    expect(chartSummary('Net sales', [], money, 'line')).toBe('Net sales: nothing in this range.');
  });

  it('draws a line through the points, broken where one is missing', () => {
    expect(polyline([[0, 10], [5.04, 20], null, [15, 0], [20, 1.25]])).toBe('M0,10L5,20M15,0L20,1.3');
    expect(polyline([])).toBe('');
    const { container } = render(<Chart title="Net sales" points={points} format={money} compareName="Previous year" />);
    expect(container.querySelector('.an-chart__line')!.getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+L[\d.]+,[\d.]+L[\d.]+,[\d.]+$/);
    expect(container.querySelector('.an-chart__area')!.getAttribute('d')).toMatch(/Z$/);
    expect(container.querySelector('.an-chart__compare')).not.toBeNull();
  });

  it('labels the axis briefly', () => {
    expect(tickText('Nov 30, 2026 14:00')).toBe('14:00');
    expect(tickText('Nov 30, 2026')).toBe('Nov 30');
    expect(tickText('Week of Nov 16, 2026')).toBe('Nov 16');
    expect(tickText('November 2026')).toBe('November');
  });

  it('rounds its axis up to a readable bound', () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(56.1)).toBe(100);
    expect(niceMax(180.5)).toBe(200);
    expect(niceMax(2400)).toBe(2500);
    expect(niceMax(5)).toBe(5);
  });
});
