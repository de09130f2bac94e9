// Screenshot comparison for the browser tests: a page's capture against the
// baseline PNG committed under e2e/__screenshots__/, within a tolerance, with
// pixelmatch (per-pixel colour distance, anti-aliased pixels ignored) and
// pngjs (decode and encode).
//
// - A baseline matches when at most MAX_DIFF_RATIO of its pixels differ by
//   more than THRESHOLD (pixelmatch's YIQ colour distance, 0 to 1).
// - On a mismatch the actual capture and a diff image (differing pixels red
//   over a faded copy of the baseline) are written under
//   e2e/__screenshots__/failed/ (git-ignored) and their paths are in the
//   error message.
// - With UPDATE_SCREENSHOTS=1 a missing or differing baseline is (re)written
//   instead of failing; an identical one is left as it is, so an update run
//   touches only the pictures that changed.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Where the committed baselines live. */
export const BASELINE_DIR = path.join(here, '__screenshots__');
/** Where a failed comparison leaves the actual capture and the diff (git-ignored). */
export const FAILED_DIR = path.join(BASELINE_DIR, 'failed');
/** pixelmatch's per-pixel threshold: colour distances up to this are the same pixel. */
export const THRESHOLD = 0.1;
/** The fraction of a picture's pixels allowed to differ (0.2 %). */
export const MAX_DIFF_RATIO = 0.002;
/** Set to 1 to write missing or changed baselines instead of failing. */
export const UPDATING = process.env.UPDATE_SCREENSHOTS === '1';

/** Decodes a PNG (a Buffer) into { width, height, data } with RGBA pixels. */
export function decodePNG(buffer) {
  const png = PNG.sync.read(buffer);
  return { width: png.width, height: png.height, data: png.data };
}

/**
 * Encodes RGBA pixels as a small PNG: 8-bit RGB (a screenshot has no
 * transparency), deflate level 9.
 */
export function encodePNG({ width, height, data }) {
  const png = new PNG({ width, height, colorType: 2, inputColorType: 6, inputHasAlpha: true, bitDepth: 8, deflateLevel: 9 });
  data.copy(png.data);
  return PNG.sync.write(png, { colorType: 2, inputColorType: 6, inputHasAlpha: true, bitDepth: 8, deflateLevel: 9 });
}

/**
 * Compares two decoded images. Returns { sameSize, differing, total, ratio, diff }:
 * differing pixels beyond THRESHOLD, their share of the picture, and the diff image
 * (RGBA) when the sizes agree.
 */
export function compareImages(expected, actual, { threshold = THRESHOLD } = {}) {
  const total = expected.width * expected.height;
  if (expected.width !== actual.width || expected.height !== actual.height) {
    return { sameSize: false, differing: total, total, ratio: 1, diff: null };
  }
  const diff = Buffer.alloc(total * 4);
  const differing = pixelmatch(expected.data, actual.data, diff, expected.width, expected.height, { threshold });
  return { sameSize: true, differing, total, ratio: differing / total, diff: { width: expected.width, height: expected.height, data: diff } };
}

const rel = (p) => path.relative(process.cwd(), p) || p;

/**
 * Checks a capture (PNG bytes) against the baseline `name`.png. Throws an
 * Error naming the files to look at when they differ beyond the tolerance (or
 * the baseline is missing); with UPDATE_SCREENSHOTS=1 writes the baseline
 * instead. Returns { outcome, differing, ratio }: outcome 'match', 'created'
 * or 'updated', and how many pixels differed from the baseline (and their share).
 */
export function matchScreenshot(name, capture, { threshold = THRESHOLD, maxDiffRatio = MAX_DIFF_RATIO } = {}) {
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(name)) throw new Error(`screenshot name ${JSON.stringify(name)}: use a-z, 0-9, '.' and '-'`);
  const baseline = path.join(BASELINE_DIR, `${name}.png`);
  const actualPath = path.join(FAILED_DIR, `${name}.actual.png`);
  const diffPath = path.join(FAILED_DIR, `${name}.diff.png`);
  // Leftovers of an earlier failed run of this picture would mislead.
  rmSync(actualPath, { force: true });
  rmSync(diffPath, { force: true });

  const actual = decodePNG(capture);
  if (!existsSync(baseline)) {
    if (UPDATING) {
      mkdirSync(BASELINE_DIR, { recursive: true });
      writeFileSync(baseline, encodePNG(actual));
      return { outcome: 'created', differing: 0, ratio: 0 };
    }
    mkdirSync(FAILED_DIR, { recursive: true });
    writeFileSync(actualPath, encodePNG(actual));
    throw new Error(
      `screenshot ${name}: no baseline ${rel(baseline)}; the page as captured is ${rel(actualPath)}.\n` +
        `Write the baselines on purpose with: make screenshots (or cd web && npm run screenshots)`,
    );
  }

  const expected = decodePNG(readFileSync(baseline));
  const result = compareImages(expected, actual, { threshold });
  const { differing, ratio } = result;
  if (result.sameSize && differing === 0) return { outcome: 'match', differing, ratio };
  if (UPDATING) {
    writeFileSync(baseline, encodePNG(actual));
    return { outcome: 'updated', differing, ratio };
  }
  if (result.sameSize && ratio <= maxDiffRatio) return { outcome: 'match', differing, ratio };

  mkdirSync(FAILED_DIR, { recursive: true });
  writeFileSync(actualPath, encodePNG(actual));
  let what;
  if (result.sameSize) {
    writeFileSync(diffPath, PNG.sync.write(Object.assign(new PNG({ width: result.diff.width, height: result.diff.height }), { data: result.diff.data })));
    what =
      `${result.differing} of ${result.total} pixels differ (${(result.ratio * 100).toFixed(3)} %, ` +
      `allowed ${(maxDiffRatio * 100).toFixed(3)} % at threshold ${threshold}).\n` +
      `  baseline: ${rel(baseline)}\n  actual:   ${rel(actualPath)}\n  diff:     ${rel(diffPath)}`;
  } else {
    what =
      `the size differs: baseline ${expected.width}×${expected.height}, actual ${actual.width}×${actual.height}.\n` +
      `  baseline: ${rel(baseline)}\n  actual:   ${rel(actualPath)}`;
  }
  throw new Error(
    `screenshot ${name}: ${what}\n` +
      `If the change is intended, write the new baselines with: make screenshots (or cd web && npm run screenshots)`,
  );
}
