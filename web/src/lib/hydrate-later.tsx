import { options } from 'preact';
import { Suspense, type ReactElement } from 'react';
import { useHydrated } from '../listing/hydrated';
import { ServerFragment } from './server-fragments';

/**
 * Hydration in parts (docs/decisions/0124-hydration-in-parts.md).
 *
 * Preact hydrates a whole tree in one task. On a phone that task is long
 * (Lighthouse's Total Blocking Time counts every task over 50 ms at its 4×
 * slower CPU), and nothing on the page answers until it ends. A part of the
 * page wrapped in <Later> is left out of that first pass and hydrated in a
 * task of its own afterwards, one part per task, in the order the parts come
 * in the document, so the browser can paint and answer input in between.
 *
 * How: while entry-client hydrates (hydrateInParts, until every part is
 * live), a Later part that is being hydrated suspends (throws a promise)
 * unless its turn has come. Preact keeps a suspended part's server HTML as
 * it is during hydration (its Suspense shows no fallback), goes on with the
 * rest of the page, and when the promise resolves hydrates the part from
 * that kept HTML: the same DOM nodes, no re-render, no mismatch. Each part
 * has its own Suspense boundary (a boundary resumes all its suspended
 * children together, in one task). A part inside a part takes its turn
 * right after its outer part, before the parts that follow. A Later that is
 * not being hydrated (the server, a client render, the unit tests, a card
 * added by infinite scroll) renders its child at once.
 *
 * Preact keeps the first element of a suspended part: a Later's child must
 * be one element (not a fragment, not text, not a component that renders
 * several). The Suspense boundary writes no markup of its own (the server's
 * synchronous render wraps nothing in markers).
 *
 * A click in the page before every part is live would reach a button with
 * no handler yet: it is held (its default prevented, stopped in the capture
 * phase), every part left is hydrated at once, and the click is made again
 * on the same element (element.click(): its handlers, or a link's or a
 * checkbox's own action). A click with a modifier key or another button
 * (a new tab) goes through untouched. Typing needs nothing: hydration keeps
 * what a field holds.
 */

type Task = () => void;

let active = false; // from hydrateInParts until every part is live
let flushing = false; // a held click: every part left hydrates at once
let released = 0; // parts whose turn has come and that have not rendered yet
let insertAt = 0; // where a part's turn goes in the queue
const queue: Task[] = [];
let running = false;
let done: Promise<void> = Promise.resolve();
let finish: (() => void) | null = null;
let held: Element | null = null;
let root: Element | null = null;

const channel = typeof MessageChannel === 'undefined' ? null : new MessageChannel();
const waiting: Task[] = [];
if (channel) {
  (channel.port1 as { unref?: () => void }).unref?.();
  channel.port1.onmessage = () => waiting.shift()?.();
}

/** Resolves in a new task (after the tasks already posted: effects, input). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    if (!channel) {
      setTimeout(resolve, 0);
      return;
    }
    waiting.push(resolve);
    channel.port2.postMessage(0);
  });
}

/** Hydrates the parts left, one per task, then opens partsHydrated(). */
async function pump(): Promise<void> {
  if (running) return;
  running = true;
  try {
    for (;;) {
      await nextTask();
      released = 0;
      const next = queue.shift();
      if (!next) break;
      // The part's render runs in this task's microtasks; parts inside it
      // take their turns next, before the parts after it.
      insertAt = 0;
      released = 1;
      next();
    }
  } finally {
    running = false;
  }
  if (queue.length) {
    void pump();
    return;
  }
  active = false;
  flushing = false;
  stopHolding();
  const f = finish;
  finish = null;
  f?.();
}

/** A part's turn: a promise that the pump resolves in the part's own task. */
function turn(): Promise<void> {
  return new Promise((resolve) => {
    queue.splice(insertAt++, 0, resolve);
  });
}

function Gate({ children }: { children: ReactElement }): ReactElement {
  // False while hydrating (the first pass, or a part's own pass), as on the server.
  const hydrating = !useHydrated();
  if (active && hydrating && !flushing) {
    if (released > 0) released--; // this part's turn
    else throw turn();
  }
  return children;
}

/*
 * useId inside a part. Preact's ids count up in render order from the
 * nearest vnode with a mask (`__m`, [prefix, next]), the root's by default;
 * the server renders in document order, but a part is hydrated after the
 * rest of the page, so a counter shared with it would give other ids in the
 * browser (a quantity button's aria-controls naming no field). Each Later
 * part has a mask of its own, named from the enclosing mask and its place
 * among the parts under it ("0_2", "0_2_1"): the same on the server and in
 * the browser, whatever the order the parts hydrate in. Preact's internal
 * names are mangled (`__r`: options._render, `__`: a vnode's parent);
 * hydrate-later.test.tsx fails if an upgrade renames them.
 */
type Mask = [string | number, number, number?];
const onServer = typeof document === 'undefined';
type Masked = { type: unknown; __?: Masked | null; __m?: Mask; __c?: { partMask?: Mask } | null };
const hooks = options as unknown as { __r?: (v: Masked) => void };
const render = hooks.__r;
/** The component being rendered (the last the hook saw). */
let rendering: Masked | null = null;
hooks.__r = (v: Masked) => {
  rendering = v;
  // Kept on the part's component (`__c`): a re-render of its boundary
  // renders a copy of its vnode.
  const c = v.__c;
  // A server fragment (lib/server-fragments.tsx) numbers the parts inside it
  // on its own: from the cache its content is not rendered at all, and the
  // parts after it must be named as in a render that made it.
  if (v.type === ServerFragment) v.__m = ['f', 0];
  // On the server a part is its Later alone (no gate, below): the mask goes there.
  if ((v.type === Gate || (v.type === Later && onServer)) && c) {
    if (!c.partMask) {
      let p = v.__;
      while (p && !p.__m && p.__) p = p.__;
      if (p) {
        const mask = (p.__m ??= [0, 0]);
        mask[2] = (mask[2] ?? 0) + 1;
        c.partMask = [`${mask[0]}_${mask[2]}`, 0];
      }
    }
    if (c.partMask) v.__m = c.partMask;
  }
  render?.(v);
};

/**
 * From a component's render in a server render: n Later parts under it are
 * written as HTML without being rendered (a grid of cached cards, each a
 * part), and still take their places, so the parts after them get the
 * names a render of them would have given (and the browser gives).
 */
export function skipLaterParts(n: number): void {
  if (!rendering) return;
  let p: Masked | null | undefined = rendering;
  while (p && !p.__m && p.__) p = p.__;
  if (!p) return;
  const mask = (p.__m ??= [0, 0]);
  mask[2] = (mask[2] ?? 0) + n;
}

/** Hydrates child in a task of its own after the page's first pass (see above). */
export function Later({ children }: { children: ReactElement }) {
  // On the server a part is only its children: the boundary and the gate
  // matter while hydrating, and cost two components per part (per card) in
  // every render. The part's mask is on this component's vnode either way.
  if (onServer) return children;
  return (
    <Suspense fallback={null}>
      <Gate>{children}</Gate>
    </Suspense>
  );
}

function holdClick(e: MouseEvent): void {
  if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  // The element to click again: the nearest HTML element (an icon's SVG
  // has no click()), whose click bubbles through the same ancestors.
  let target: Element | null = e.target instanceof Element ? e.target : e.target instanceof Node ? e.target.parentElement : null;
  while (target && !(target instanceof HTMLElement)) target = target.parentElement;
  if (!target || !root?.contains(target) || held) return;
  e.preventDefault();
  e.stopImmediatePropagation();
  held = target;
  // Every part left, now (parts inside them too): their renders run in this
  // task's microtasks; the click is made again once they are done.
  flushing = true;
  for (const next of queue.splice(0)) next();
}

function stopHolding(): void {
  document.removeEventListener('click', holdClick, true);
  const el = held;
  held = null;
  // After the parts' effects (posted as tasks when they committed).
  if (el) void nextTask().then(() => (el as HTMLElement).click?.());
}

/**
 * entry-client: hydrate(), whose Later parts suspend and are hydrated one
 * per task afterwards. Clicks inside container are held until they are.
 */
export function hydrateInParts(hydrate: () => void, container: Element): void {
  root = container;
  done = new Promise((resolve) => {
    finish = resolve;
  });
  document.addEventListener('click', holdClick, true);
  active = true;
  insertAt = queue.length;
  try {
    hydrate();
  } finally {
    // A first pass that throws still ends in the pump: the parts left are
    // hydrated or not, but clicks stop being held, and a held one is made
    // again (a link still leads on), instead of being swallowed for good.
    void pump();
  }
}

/** Resolves once every Later part of the page has hydrated; at once where none waits. */
export function partsHydrated(): Promise<void> {
  return done;
}

/**
 * Runs work in a task of its own once every part of the page is live (at
 * once, in a new task, where nothing hydrates): work no shopper waits for,
 * kept out of the hydration's tasks. Returns a function that cancels it.
 */
export function afterHydration(work: () => void): () => void {
  let live = true;
  void done.then(nextTask).then(() => {
    if (live) work();
  });
  return () => {
    live = false;
  };
}
