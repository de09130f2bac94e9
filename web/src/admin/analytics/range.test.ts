import { apiDates, comparisonSpan, currentSpan, dayIn, dayOf, defaultInterval, isDay, periodSpan, rangeParams, readRange } from './range';

const q = (s: string) => new URLSearchParams(s);

describe('the periods', () => {
  // 2026-11-30 is a Monday.
  it('starts the week on Monday, so on a Monday week to date is that day alone', () => {
    expect(periodSpan('week', '2026-11-30')).toEqual({ from: '2026-11-30', to: '2026-11-30' });
    expect(periodSpan('week', '2026-11-29')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(periodSpan('last_week', '2026-11-30')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
  });
  it('crosses the year for yesterday, last month and last week in early January', () => {
    expect(periodSpan('yesterday', '2027-01-01')).toEqual({ from: '2026-12-31', to: '2026-12-31' });
    expect(periodSpan('last_month', '2027-01-15')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(periodSpan('last_week', '2027-01-01')).toEqual({ from: '2026-12-21', to: '2026-12-27' });
  });
  it('knows the month, quarter and year to date at their first day', () => {
    expect(periodSpan('month', '2026-03-01')).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    expect(periodSpan('quarter', '2026-03-31')).toEqual({ from: '2026-01-01', to: '2026-03-31' });
    expect(periodSpan('quarter', '2026-04-01')).toEqual({ from: '2026-04-01', to: '2026-04-01' });
    expect(periodSpan('year', '2026-11-30')).toEqual({ from: '2026-01-01', to: '2026-11-30' });
    expect(periodSpan('last_month', '2024-03-31')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
  });
});

describe('the comparison', () => {
  it('is as long as the range and just before it', () => {
    expect(comparisonSpan({ from: '2026-11-01', to: '2026-11-30' }, 'previous_period')).toEqual({ from: '2026-10-02', to: '2026-10-31' });
    expect(comparisonSpan({ from: '2026-11-30', to: '2026-11-30' }, 'previous_period')).toEqual({ from: '2026-11-29', to: '2026-11-29' });
  });
  it('is the same days a year earlier, 29 February becoming the 28th', () => {
    expect(comparisonSpan({ from: '2026-11-01', to: '2026-11-30' }, 'previous_year')).toEqual({ from: '2025-11-01', to: '2025-11-30' });
    expect(comparisonSpan({ from: '2024-02-01', to: '2024-02-29' }, 'previous_year')).toEqual({ from: '2023-02-01', to: '2023-02-28' });
  });
});

describe('the range in the address', () => {
  it('defaults to month to date against the previous year, and leaves the defaults out', () => {
    const r = readRange(q(''), '2026-11-30');
    expect(r).toEqual({ period: 'month', compare: 'previous_year', after: '2026-11-01', before: '2026-11-30', interval: '' });
    expect(rangeParams(r)).toEqual({ period: undefined, compare: undefined, after: undefined, before: undefined, interval: undefined });
  });
  it('reads custom dates, and falls back when one is not a real day', () => {
    expect(readRange(q('period=custom&after=2026-02-01&before=2026-02-10&compare=previous_period&interval=week'), '2026-11-30')).toEqual({
      period: 'custom',
      compare: 'previous_period',
      after: '2026-02-01',
      before: '2026-02-10',
      interval: 'week',
    });
    expect(readRange(q('period=custom&after=2026-02-30&before=2026-03-10'), '2026-11-30').period).toBe('month');
    expect(readRange(q('period=fortnight&compare=bogus&interval=minute'), '2026-11-30')).toMatchObject({ period: 'month', compare: 'previous_year', interval: '' });
  });
  it('puts reversed custom dates in order', () => {
    const r = readRange(q('period=custom&after=2026-02-10&before=2026-02-01'), '2026-11-30');
    expect(currentSpan(r, '2026-11-30')).toEqual({ from: '2026-02-01', to: '2026-02-10' });
  });
  it('asks the API for whole days and picks an interval by length', () => {
    expect(apiDates({ from: '2026-11-01', to: '2026-11-30' })).toEqual({ after: '2026-11-01T00:00:00', before: '2026-11-30T23:59:59' });
    expect(defaultInterval({ from: '2026-11-30', to: '2026-11-30' })).toBe('hour');
    expect(defaultInterval({ from: '2026-11-01', to: '2026-12-01' })).toBe('day');
    expect(defaultInterval({ from: '2026-11-01', to: '2026-12-02' })).toBe('week');
    expect(defaultInterval({ from: '2026-01-01', to: '2026-11-30' })).toBe('month');
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2024-02-29')).toBe(true);
  });
});

describe("the shop's day", () => {
  // 03:00 UTC on 30 November: still the 29th in New York, the 30th in Tokyo.
  const at = new Date(Date.UTC(2026, 10, 30, 3, 0, 0));
  it('is the calendar day in the shop\'s time zone', () => {
    expect(dayIn(at, 'America/New_York')).toBe('2026-11-29');
    expect(dayIn(at, 'Asia/Tokyo')).toBe('2026-11-30');
    expect(dayIn(at, 'UTC')).toBe('2026-11-30');
    // Kiritimati (UTC+14) is a day ahead of Honolulu at the same instant.
    expect(dayIn(new Date(Date.UTC(2026, 11, 31, 12, 0, 0)), 'Pacific/Kiritimati')).toBe('2027-01-01');
    expect(dayIn(new Date(Date.UTC(2026, 11, 31, 12, 0, 0)), 'Pacific/Honolulu')).toBe('2026-12-31');
  });
  it("falls back to the browser's day when the zone is unknown or not given", () => {
    expect(dayIn(at, '')).toBe(dayOf(at));
    expect(dayIn(at, 'Mars/Olympus')).toBe(dayOf(at));
  });
});
