// axe scans for the browser tests: a page (or a part of it) has no serious
// or critical violation, and a failure names each rule, its help and the
// elements it found.
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';

const isSerious = (v) => v.impact === 'serious' || v.impact === 'critical';

/** A violation as "rule: its elements". */
function brief(v) {
  return `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`;
}

function report(violations) {
  return violations
    .map(
      (v) =>
        `- [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n` +
        v.nodes
          .slice(0, 8)
          .map((n) => `    ${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`)
          .join('\n'),
    )
    .join('\n');
}

/**
 * Runs axe on the page as it is now (only the part the include selector
 * picks, when given) and asserts it ran its rules and found no serious or
 * critical violation; with anyImpact no violation at all.
 */
export async function assertAccessible(page, label, { include, anyImpact = false } = {}) {
  let builder = new AxeBuilder({ page });
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  assert.ok(results.passes.length > 0, 'axe ran its rules');
  const bad = anyImpact ? results.violations : results.violations.filter(isSerious);
  assert.deepEqual(bad.map(brief), [], `axe on ${label}:\n${report(bad)}`);
}
