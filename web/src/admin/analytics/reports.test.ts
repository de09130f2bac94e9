import { cellText, parseCSV, REPORTS, reportOf } from './reports';

describe('the reports', () => {
  it('read a CSV with quoted commas, quotes and line ends', () => {
    expect(parseCSV('id,name\r\n17,"Belt, ""leather"""\r\n18,"two\nlines"\r\n')).toEqual([
      ['id', 'name'],
      ['17', 'Belt, "leather"'],
      ['18', 'two\nlines'],
    ]);
    expect(parseCSV('a,b\n1,')).toEqual([['a', 'b'], ['1', '']]);
    expect(parseCSV('')).toEqual([]);
  });
  it('write cells as the table shows them', () => {
    expect(cellText(56.1, 'currency', 'USD')).toBe('$56.10');
    expect(cellText(2.3333, 'number', 'USD')).toBe('2.33');
    expect(cellText('2026-11-29 04:07:43', 'date', 'USD')).toBe('Nov 29, 2026');
    expect(cellText(null, 'currency', 'USD')).toBe('');
    expect(cellText('N/A', 'number', 'USD')).toBe('N/A');
  });
  it('sort only by what the API sorts by, and know every report', () => {
    expect(REPORTS.map((r) => r.slug)).toEqual(['revenue', 'orders', 'products', 'variations', 'categories', 'coupons', 'taxes', 'stock', 'customers']);
    for (const r of REPORTS) {
      expect(r.table.sorts).toContain(r.table.initial.orderby);
      for (const c of r.table.columns) if (c.sort) expect(r.table.sorts, `${r.slug}.${c.key}`).toContain(c.sort);
    }
    expect(reportOf('nowhere')).toBeUndefined();
  });
});
