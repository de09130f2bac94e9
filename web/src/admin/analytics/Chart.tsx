// A report's chart: one series as a line (over time) or bars (by kind),
// and the series it is compared with as a dashed line. Drawn as SVG with
// no chart library: straight segments and linear scales are a few lines
// (decision 0113). Every chart
// has its text alternative (a one-sentence summary and a table of its
// numbers) and keyboard-reachable points: the chart is one Tab stop, the
// arrow keys (Home, End) move between points, and the point's label and
// value are shown beside it and said in a polite live region.

import { useEffect, useId, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';

export interface Point {
  /** What the point is: "Nov 22, 2026", "Out of stock". */
  label: string;
  value: number;
  /** The compared period's value and its label, when a comparison is drawn. */
  compare?: { label: string; value: number };
}

export interface ChartProps {
  /** What is charted: "Net sales". */
  title: string;
  points: Point[];
  format: (n: number) => string;
  kind?: 'line' | 'bar';
  /** The comparison's name in the legend and the table: "Previous year". */
  compareName?: string;
}

/** The drawing's height; its width is the plot's own (640 until measured), so text is never stretched. */
const H = 240;
const PAD = { top: 12, right: 12, bottom: 28, left: 56 };

/** Round upper bound for the value axis: 1, 2, 2.5 or 5 times a power of ten. */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= max) return m * p;
  return 10 * p;
}

const r = (n: number) => Math.round(n * 10) / 10;

/** An SVG path through the points; a missing point (null) breaks the line. */
export function polyline(pts: (readonly [number, number] | null)[]): string {
  let d = '';
  let pen = false;
  for (const p of pts) {
    if (!p) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${r(p[0])},${r(p[1])}`;
    pen = true;
  }
  return d;
}

/** A point's label under the axis: the hour of an hour, the day without its year. */
export function tickText(label: string): string {
  return /\d{2}:\d{2}$/.exec(label)?.[0] ?? label.replace(/^Week of /, '').replace(/,? \d{4}$/, '');
}

/** Where a point's label sits: centred on it, or held inside the plot near its edges. */
function tipPlace(at: number): CSSProperties {
  const pct = `${(at * 100).toFixed(2)}%`;
  if (at < 0.3) return { left: pct, transform: 'translateX(-12px)' };
  if (at > 0.7) return { right: `${((1 - at) * 100).toFixed(2)}%`, transform: 'translateX(12px)' };
  return { left: pct, transform: 'translateX(-50%)' };
}

/** What a point says: "Nov 22, 2026: $12.00; previous year Nov 22, 2025: $8.00". */
export function pointText(p: Point, format: (n: number) => string, compareName?: string): string {
  const head = `${p.label}: ${format(p.value)}`;
  return p.compare ? `${head}; ${(compareName ?? 'compared').toLowerCase()} ${p.compare.label}: ${format(p.compare.value)}` : head;
}

/** The chart's sentence: its total, its highest point. */
export function chartSummary(title: string, points: Point[], format: (n: number) => string, kind: 'line' | 'bar'): string {
  if (points.length === 0) return `${title}: nothing in this range.`;
  const top = points.reduce((a, b) => (b.value > a.value ? b : a));
  if (kind === 'bar') return `${title}: ${points.map((p) => `${p.label} ${format(p.value)}`).join(', ')}.`;
  const total = points.reduce((s, p) => s + p.value, 0);
  return `${title} over ${points.length} ${points.length === 1 ? 'interval' : 'intervals'}: ${format(total)} in all, highest ${format(top.value)} on ${top.label}.`;
}

export function Chart({ title, points, format, kind = 'line', compareName }: ChartProps) {
  const id = useId();
  const [active, setActive] = useState<number | null>(null);
  const plot = useRef<HTMLDivElement>(null);
  const [W, setW] = useState(640);
  useEffect(() => {
    const el = plot.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([e]) => {
      const w = Math.round(e.contentRect.width);
      if (w > 0) setW(Math.max(240, w));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const n = points.length;
  const max = niceMax(Math.max(0, ...points.map((p) => Math.max(p.value, p.compare?.value ?? 0))));
  const iw = W - PAD.left - PAD.right;
  const ih = H - PAD.top - PAD.bottom;
  const band = n > 0 ? iw / n : iw;
  const x = (i: number) => PAD.left + band * i + band / 2;
  const y = (v: number) => PAD.top + ih - (Math.max(0, v) / max) * ih;
  const hasCompare = points.some((p) => p.compare);

  const paths = useMemo(() => {
    const xy = points.map((p, i) => [x(i), y(p.value)] as const);
    const base = PAD.top + ih;
    return {
      line: polyline(xy),
      area: xy.length ? `${polyline(xy)}L${r(xy[xy.length - 1][0])},${r(base)}L${r(xy[0][0])},${r(base)}Z` : '',
      compare: polyline(points.map((p, i) => (p.compare ? ([x(i), y(p.compare.value)] as const) : null))),
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [points, max, W]);

  const move = (e: KeyboardEvent) => {
    if (n === 0) return;
    const cur = active ?? -1;
    let next: number | null = null;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = Math.min(n - 1, cur + 1);
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = Math.max(0, cur < 0 ? n - 1 : cur - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = n - 1;
    else if (e.key === 'Escape') {
      setActive(null);
      return;
    }
    if (next === null) return;
    e.preventDefault();
    setActive(next);
  };

  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => t * max);
  // A label under every k-th point, one per 90 pixels at most, so they do not overlap.
  const every = Math.max(1, Math.ceil(n / Math.max(2, Math.floor((W - PAD.left) / 90))));
  const current = active !== null ? points[active] : null;
  const summary = chartSummary(title, points, format, kind);

  return (
    <figure className="an-chart" aria-labelledby={`${id}-t`}>
      <figcaption id={`${id}-t`} className="an-chart__title">
        {title}
        {hasCompare && compareName ? (
          <span className="an-chart__legend">
            <span className="an-chart__key an-chart__key--current" aria-hidden="true" /> This range{' '}
            <span className="an-chart__key an-chart__key--compare" aria-hidden="true" /> {compareName}
          </span>
        ) : null}
      </figcaption>
      <p id={`${id}-s`} className="an-chart__summary">
        {summary}
      </p>
      <div
        className="an-chart__plot"
        ref={plot}
        tabIndex={0}
        role="group"
        aria-roledescription="chart"
        aria-label={`${title}. Use the arrow keys to move between the points.`}
        aria-describedby={`${id}-s`}
        onKeyDown={move}
        onBlur={() => setActive(null)}
      >
        <svg viewBox={`0 0 ${W} ${H}`} aria-hidden="true" focusable="false">
          {ticks.map((t) => (
            <g key={t}>
              <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} className="an-chart__grid" />
              <text x={PAD.left - 6} y={y(t)} dy="0.32em" textAnchor="end" className="an-chart__tick">
                {format(t)}
              </text>
            </g>
          ))}
          {kind === 'bar' ? (
            points.map((p, i) => (
              <rect key={i} x={x(i) - band * 0.35} width={band * 0.7} y={y(p.value)} height={PAD.top + ih - y(p.value)} className={i === active ? 'an-chart__bar an-chart__bar--active' : 'an-chart__bar'} />
            ))
          ) : (
            <>
              <path d={paths.area} className="an-chart__area" />
              {hasCompare ? <path d={paths.compare} className="an-chart__compare" /> : null}
              <path d={paths.line} className="an-chart__line" />
              {points.map((p, i) => (
                <circle key={i} cx={x(i)} cy={y(p.value)} r={i === active ? 6 : n > 40 ? 0 : 3} className={i === active ? 'an-chart__dot an-chart__dot--active' : 'an-chart__dot'} />
              ))}
            </>
          )}
          {points.map((p, i) =>
            i % every === 0 ? (
              <text key={i} x={x(i)} y={H - 8} textAnchor="middle" className="an-chart__tick">
                {tickText(p.label)}
              </text>
            ) : null,
          )}
          {active !== null ? <line x1={x(active)} x2={x(active)} y1={PAD.top} y2={PAD.top + ih} className="an-chart__cursor" /> : null}
        </svg>
        {current ? (
          <div className="an-chart__tip" style={tipPlace(x(active!) / W)} aria-hidden="true">
            {pointText(current, format, compareName)}
          </div>
        ) : null}
      </div>
      <p className="screen-reader-text" aria-live="polite" data-chart-announce="">
        {current ? pointText(current, format, compareName) : ''}
      </p>
      <details className="an-chart__data">
        <summary>{title}: the numbers</summary>
        <table className="admin-table">
          <caption className="screen-reader-text">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{kind === 'bar' ? 'Kind' : 'Date'}</th>
              <th scope="col">{kind === 'bar' ? title : 'This range'}</th>
              {hasCompare ? <th scope="col">{compareName ?? 'Compared'}</th> : null}
            </tr>
          </thead>
          <tbody>
            {points.map((p, i) => (
              <tr key={i}>
                <th scope="row">{p.label}</th>
                <td>{format(p.value)}</td>
                {hasCompare ? <td>{p.compare ? `${format(p.compare.value)} (${p.compare.label})` : ''}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
