import { options } from 'preact';
import { createElement } from 'react';
import { vnodeBeforeCompat } from './preact-options';

/**
 * The server render's vnode hook, installed by entry-server.tsx after
 * preact/compat's.
 *
 * For every host element (`<div className=…>`) compat copies the props
 * into a new object, renaming React's names to the DOM's and testing each
 * name against a regular expression. The browser needs that; a server
 * render does not: preact-render-to-string reads React's names itself
 * (className, htmlFor, defaultValue, defaultChecked, style objects, a
 * select's value, SVG's camel-cased attributes) and skips event handlers
 * and refs. In QuickJS the copy was about a tenth of a product page's
 * render (docs/benchmarks.md, "Raw renders").
 *
 * So on the server a host element keeps its props as written; it still
 * gets compat's element mark (isValidElement) and the hooks installed
 * before compat. A select keeps compat's path: compat marks its options
 * selected from defaultValue, which the hook before it then removes.
 * Components, fragments and the rest go through compat as before.
 * server-vnode.test.tsx renders the app's markup both ways and compares.
 */
type VNode = { type: unknown; props: Record<string, unknown>; $$typeof?: unknown };

const hooks = options as unknown as { vnode?: (v: VNode) => void };

let installed: ((v: VNode) => void) | null = null;
let compatHook: ((v: VNode) => void) | undefined;

/** Installs the server hook over compat's (once; idempotent). */
export function installServerVnodeHook(): void {
  if (installed !== null && hooks.vnode === installed) return;
  compatHook = hooks.vnode;
  // compat's mark on every element it makes, read off one element.
  const mark = (createElement('i', null) as unknown as VNode).$$typeof;
  installed = (v: VNode) => {
    if (typeof v.type === 'string' && v.type !== 'select') {
      v.$$typeof = mark;
      vnodeBeforeCompat?.(v);
      return;
    }
    compatHook?.(v);
  };
  hooks.vnode = installed;
}

/** Puts compat's hook back (tests). */
export function uninstallServerVnodeHook(): void {
  if (installed !== null && hooks.vnode === installed) hooks.vnode = compatHook;
  installed = null;
}

/**
 * Runs a server render without the teardown hooks: options.diffed and
 * options.unmount, which preact-render-to-string calls for every vnode
 * (elements and text included) after writing it. In the browser they queue
 * effects and run their cleanups (preact/hooks) and settle suspensions
 * (preact/compat); a server render runs no effects (the renderer skips
 * them) and ends with nothing mounted, so there they do nothing a page
 * needs, at a chain of calls per vnode: about a twentieth of a product
 * page's render in QuickJS (docs/benchmarks.md, "Raw renders"). The hooks
 * the render needs (a component's render hook for hooks and ids, the vnode
 * hook above) stay. server-vnode.test.tsx renders every page both ways.
 */
export function withoutTeardownHooks<T>(render: () => T): T {
  const o = options as unknown as { diffed?: unknown; unmount?: unknown };
  const { diffed, unmount } = o;
  o.diffed = undefined;
  o.unmount = undefined;
  try {
    return render();
  } finally {
    o.diffed = diffed;
    o.unmount = unmount;
  }
}
