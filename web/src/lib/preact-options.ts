import { options } from 'preact';
// Hooks first: the commit hook below wraps the one preact/hooks installs.
import 'preact/hooks';

/**
 * Preact through preact/compat runs the app (docs/decisions/0093-preact-runtime.md).
 * Where compat stops short of React's behaviour, the gap is closed here,
 * once, for the browser, the server render and the tests alike (every entry
 * imports this module first).
 *
 * - Effects run in a microtask after their commit, not after the next
 *   frame (Preact's default, a requestAnimationFrame and a 35 ms timer):
 *   as React runs them after a click or a key press, before the next event.
 *   A key pressed right after the one that opened a menu finds the focus
 *   where the menu's effect put it, and effects do not wait on a frame that
 *   a hidden tab, or a test's paused clock, never gives.
 * - In a commit, every layout effect's cleanup runs before any layout
 *   effect (React's order; Preact runs each component's cleanup and
 *   effect in turn). A lightbox's slide that stops being current clears
 *   "the current slide" in its cleanup: run after the new current slide's
 *   effect, it cleared the new one (the zoom went dead going backwards).
 *   Preact's internal names are mangled: `__c` is options._commit and a
 *   hook's cleanup, `__h` a component's render callbacks (preact-options.test.tsx
 *   fails if an upgrade renames them).
 * - A select's defaultValue: compat marks the matching options selected
 *   and then leaves the prop on the select, where Preact writes it as an
 *   attribute (`defaultvalue`) that HTML does not have.
 */
(options as { requestAnimationFrame?: (cb: () => void) => void }).requestAnimationFrame = (cb) => queueMicrotask(cb);

type HookState = { __c?: () => void };
type Committed = { __h?: (HookState | (() => void))[] };
const hooks = options as unknown as { __c?: (vnode: unknown, queue: Committed[]) => void };
const commit = hooks.__c;
hooks.__c = (vnode, queue) => {
  for (const c of queue) {
    for (const cb of c.__h ?? []) {
      const cleanup = (cb as HookState).__c;
      if (typeof cleanup === 'function') {
        (cb as HookState).__c = undefined;
        cleanup();
      }
    }
  }
  commit?.(vnode, queue);
};

type VNode = { type: unknown; props: Record<string, unknown> };
const previous = (options as { vnode?: (v: VNode) => void }).vnode;
(options as { vnode?: (v: VNode) => void }).vnode = (v: VNode) => {
  previous?.(v);
  if (v.type === 'select' && v.props && 'defaultValue' in v.props) delete v.props.defaultValue;
};

export {};
