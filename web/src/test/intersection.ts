// A controllable IntersectionObserver for the Vitest files: tests say what
// intersects (enter, report) and read what is observed and with which
// options; mockIntersectionObserver registers it as the global one.
import { act } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

export class MockIO {
  static instances: MockIO[] = [];
  targets = new Set<Element>();
  disconnected = false;
  constructor(
    public callback: IntersectionObserverCallback,
    public options: IntersectionObserverInit = {},
  ) {
    MockIO.instances.push(this);
  }
  observe(el: Element) {
    this.targets.add(el);
  }
  unobserve(el: Element) {
    this.targets.delete(el);
  }
  disconnect() {
    this.disconnected = true;
    this.targets.clear();
  }
  takeRecords() {
    return [];
  }
  /** The first element observed. */
  get first(): Element | undefined {
    return this.targets.values().next().value;
  }
  /** The observer reports one entry (about the first element observed unless it names its target). */
  report(entry: Record<string, unknown>) {
    act(() => this.callback([{ target: this.first, ...entry } as unknown as IntersectionObserverEntry], this as unknown as IntersectionObserver));
  }
  /** el comes into view. */
  enter(el: Element) {
    this.report({ isIntersecting: true, target: el });
  }
}

/**
 * Registers the hooks: before each test no observer yet and MockIO as the
 * global IntersectionObserver, globals restored after; reset (a module's own
 * observer state) runs on both sides.
 */
export function mockIntersectionObserver(reset?: () => void) {
  beforeEach(() => {
    MockIO.instances = [];
    reset?.();
    vi.stubGlobal('IntersectionObserver', MockIO);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    reset?.();
  });
}
