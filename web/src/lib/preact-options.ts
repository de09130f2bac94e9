import { options } from 'preact';
// Hooks first: the commit hook below wraps the one preact/hooks installs.
import 'preact/hooks';

/**
 * Preact through preact/compat runs the app (docs/decisions/0093-preact-runtime.md).
 * Where compat stops short of React's behaviour, the gap is closed here,
 * once, for the browser, the server render and the tests alike (every entry
 * imports this module first).
 *
 * - Effects run when React runs them, not after the next frame (Preact's
 *   default, a requestAnimationFrame and a 35 ms timer): after a click or
 *   a key press, in the same task (a key pressed right after the one that
 *   opened a menu finds the focus where the menu's effect put it); after
 *   anything else (the hydration, a timer, an answer), in a task of their
 *   own posted at once (a MessageChannel message), so the hydration and
 *   its effects are two tasks, not one long one. Neither waits on a frame
 *   that a hidden tab, or a test's paused clock, never gives.
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
type HookState = { __c?: () => void };
type Committed = { __h?: (HookState | (() => void))[] };
type VNode = { type: unknown; props: Record<string, unknown> };
// The option hooks used here, public and mangled (`__c`: options._commit).
const hooks = options as unknown as {
  requestAnimationFrame?: (cb: () => void) => void;
  event?: (e: Event) => Event;
  vnode?: (v: VNode) => void;
  __c?: (vnode: unknown, queue: Committed[]) => void;
};

// Events a person makes, one at a time (React's "discrete" events).
const DISCRETE = new Set(['click', 'keydown', 'keyup', 'input', 'change', 'submit', 'pointerdown', 'pointerup', 'mousedown', 'mouseup',
  'touchstart', 'touchend', 'focusin', 'focusout', 'focus', 'blur', 'contextmenu', 'beforeinput', 'compositionend', 'dragstart', 'drop']);
const effects: (() => void)[] = [];
const channel = typeof MessageChannel === 'undefined' ? null : new MessageChannel();
let discrete = false; // in the task of a discrete event (until the next task)
if (channel) {
  // Node (the unit tests): the port must not keep the process alive.
  (channel.port1 as { unref?: () => void }).unref?.();
  channel.port1.onmessage = (e: MessageEvent) => {
    if (e.data === 'task') discrete = false;
    else for (const cb of effects.splice(0)) cb();
  };
}
const event = hooks.event;
hooks.event = (e: Event) => {
  if (channel && !discrete && DISCRETE.has(e.type)) {
    discrete = true;
    channel.port2.postMessage('task');
  }
  return event ? event(e) : e;
};
hooks.requestAnimationFrame = (cb) => {
  if (!channel || discrete) return queueMicrotask(cb);
  effects.push(cb);
  if (effects.length === 1) channel.port2.postMessage('effects');
};

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

const previous = hooks.vnode;
hooks.vnode = (v: VNode) => {
  previous?.(v);
  if (v.type === 'select' && v.props && 'defaultValue' in v.props) delete v.props.defaultValue;
};

/**
 * The vnode hooks installed before preact/compat's (this module's and any
 * before it): the server's host-element hook (lib/server-vnode.ts) calls
 * them where it skips compat's own.
 */
export const vnodeBeforeCompat = hooks.vnode as (v: VNode) => void;

