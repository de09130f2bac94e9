// The range picker: a period (or custom dates), the comparison and the
// interval. Nothing changes until "Update" is pressed; then the choice
// becomes the address (one step in Back), and the report follows it. A
// custom range with a missing or reversed date is refused next to its
// field, with focus there.

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Field } from '../ui/Field';
import { COMPARES, comparisonSpan, currentSpan, formatSpan, INTERVALS, isDay, PERIODS, type Compare, type Interval, type Period, type RangeState } from './range';

export function RangePicker({ range, today, onChange }: { range: RangeState; today: string; onChange: (r: RangeState) => void }) {
  const [draft, setDraft] = useState(range);
  const [errors, setErrors] = useState<{ after?: string; before?: string }>({});
  const afterRef = useRef<HTMLInputElement>(null);
  const beforeRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    setDraft(range);
    setErrors({});
  }, [range.period, range.compare, range.after, range.before, range.interval]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (draft.period === 'custom') {
      const errs: { after?: string; before?: string } = {};
      if (!isDay(draft.after)) errs.after = 'Enter the first day of the range.';
      if (!isDay(draft.before)) errs.before = 'Enter the last day of the range.';
      else if (!errs.after && draft.before < draft.after) errs.before = 'The last day is before the first day.';
      else if (!errs.after && draft.before > today) errs.before = 'The last day is in the future.';
      setErrors(errs);
      if (errs.after) return afterRef.current?.focus();
      if (errs.before) return beforeRef.current?.focus();
    }
    setErrors({});
    onChange(draft);
  };

  const span = currentSpan(range, today);
  const compared = comparisonSpan(span, range.compare);
  return (
    <form className="an-range" aria-label="Report dates" onSubmit={submit} noValidate>
      <div className="an-range__fields">
        <Field label="Date range">
          {(p) => (
            <select
              {...p}
              value={draft.period}
              onChange={(e) => {
                const period = e.target.value as Period;
                // Custom starts from the dates the report shows now.
                setDraft(period === 'custom' && draft.period !== 'custom' ? { ...draft, period, after: span.from, before: span.to } : { ...draft, period });
              }}
            >
              {PERIODS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {draft.period === 'custom' ? (
          <>
            <Field label="From" error={errors.after}>
              {(p) => <input {...p} ref={afterRef} type="date" max={today} value={draft.after} onChange={(e) => setDraft({ ...draft, after: e.target.value })} />}
            </Field>
            <Field label="To" error={errors.before}>
              {(p) => <input {...p} ref={beforeRef} type="date" max={today} value={draft.before} onChange={(e) => setDraft({ ...draft, before: e.target.value })} />}
            </Field>
          </>
        ) : null}
        <Field label="Compare with">
          {(p) => (
            <select {...p} value={draft.compare} onChange={(e) => setDraft({ ...draft, compare: e.target.value as Compare })}>
              {COMPARES.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Show">
          {(p) => (
            <select {...p} value={draft.interval} onChange={(e) => setDraft({ ...draft, interval: e.target.value as Interval | '' })}>
              <option value="">The range's best fit</option>
              {INTERVALS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" className="admin-primary">
          Update
        </button>
      </div>
      <p className="an-range__now" aria-live="polite">
        {formatSpan(span)} compared with {formatSpan(compared)}
      </p>
    </form>
  );
}
