// Shared by the browser tests: is an element a journey uses really there for
// the shopper? Rendered, inside the viewport, and on top: nothing (a clipping
// ancestor, a fixed tab, the sticky header) covers it. document.elementFromPoint
// at its centre and near its four corners must return it or a descendant.
import assert from 'node:assert/strict';

/** The two widths every journey is walked at. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 812 };
export const WIDTHS = [
  ['1280×800', DESKTOP],
  ['375×812', PHONE],
];

/** Where the element is and what the shopper sees at its probe points (runs in the page). */
function probe(el) {
  const describe = (n) => {
    if (!n) return 'nothing';
    const id = n.id ? `#${n.id}` : '';
    const cls = typeof n.className === 'string' && n.className.trim() ? `.${n.className.trim().split(/\s+/).join('.')}` : '';
    return `${n.tagName.toLowerCase()}${id}${cls}`;
  };
  const r = el.getBoundingClientRect();
  const vw = document.documentElement.clientWidth;
  const vh = document.documentElement.clientHeight;
  const out = { rect: { top: r.top, left: r.left, bottom: r.bottom, right: r.right }, viewport: { width: vw, height: vh } };
  if (r.width < 1 || r.height < 1) return { ...out, ok: false, why: 'it has no size (not rendered)' };
  // Half a pixel of slack for subpixel layout.
  if (r.top < -0.5 || r.left < -0.5 || r.bottom > vh + 0.5 || r.right > vw + 0.5) {
    return { ...out, ok: false, why: 'it is not wholly inside the viewport' };
  }
  const dx = Math.min(8, r.width / 4);
  const dy = Math.min(8, r.height / 4);
  const points = [
    ['centre', r.left + r.width / 2, r.top + r.height / 2],
    ['top left', r.left + dx, r.top + dy],
    ['top right', r.right - dx, r.top + dy],
    ['bottom left', r.left + dx, r.bottom - dy],
    ['bottom right', r.right - dx, r.bottom - dy],
  ];
  for (const [name, x, y] of points) {
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit))) {
      return { ...out, ok: false, why: `at its ${name} (${Math.round(x)}, ${Math.round(y)}) the shopper sees ${describe(hit)}` };
    }
  }
  return { ...out, ok: true, why: '' };
}

/**
 * Asserts that locator's element is usable by sight: rendered, wholly inside
 * the viewport and not covered. With scroll (the default) it is first scrolled
 * into view the way a shopper would (only if it is not in view already).
 * Waits up to timeout for a panel's slide or fade to settle, then fails with
 * what covers it.
 */
export async function assertUsable(locator, what, { scroll = true, timeout = 3000 } = {}) {
  await locator.waitFor({ state: 'visible' });
  if (scroll) await locator.scrollIntoViewIfNeeded();
  const page = locator.page();
  const until = Date.now() + timeout;
  let last;
  for (;;) {
    last = await locator.evaluate(probe);
    if (last.ok || Date.now() > until) break;
    await page.waitForTimeout(50);
  }
  assert.ok(last.ok, `${what} is not usable: ${last.why} (box ${JSON.stringify(last.rect)}, viewport ${JSON.stringify(last.viewport)})`);
}
