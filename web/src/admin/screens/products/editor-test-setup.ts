// Shared by the product editor's tests: the hooks every test needs, the
// answers of the lists the editor loads beside the product, and an axe run.
import axe from 'axe-core';
import { setupAdminTests } from '../../test-utils';
import { attributes, categories } from './fixtures';
import type { ImageRef } from './types';

/** Registers the hooks: the REST nonce, a scrollTo stub, globals restored. */
export function setupEditorTests() {
  setupAdminTests({ scroll: true });
}

/** The editor's side lists (categories, tags, attributes, images); undefined for anything else. */
export function editorLists(method: string, url: string, extra: { tags?: unknown[]; images?: ImageRef[] } = {}) {
  if (method !== 'GET') return undefined;
  if (url.startsWith('/wp-json/wc/v3/products/categories')) return { body: categories };
  if (url.startsWith('/wp-json/wc/v3/products/tags')) return { body: extra.tags ?? [] };
  if (url.startsWith('/wp-json/wc/v3/products/attributes')) return { body: attributes };
  if (url.startsWith('/wp-json/vitrine/v1/admin/product-images')) return { body: extra.images ?? [] };
  return undefined;
}

/** axe on container: no violation (colour contrast is not computed in jsdom). */
export async function noViolations(container: HTMLElement) {
  const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
