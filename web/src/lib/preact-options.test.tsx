import { createContext, useContext, useLayoutEffect, useState, type ReactNode } from 'react';
import { act, render } from '@testing-library/react';

// The runtime keeps React's order of layout effects in a commit (lib/preact-options.ts).
describe('layout effects', () => {
  it('run every cleanup of a commit before any effect, whatever the tree order', () => {
    const Current = createContext<(v: string | undefined) => void>(() => {});
    const log: string[] = [];
    function Slide({ id, current }: { id: string; current: boolean }) {
      const set = useContext(Current);
      useLayoutEffect(() => {
        if (!current) return;
        log.push(`set ${id}`);
        set(id);
        return () => {
          log.push(`clear ${id}`);
          set(undefined);
        };
      }, [current, id, set]);
      return <li>{id}</li>;
    }
    let shown: string | undefined;
    function Host({ children }: { children: ReactNode }) {
      const [, force] = useState(0);
      const set = (v: string | undefined) => {
        shown = v;
      };
      return (
        <Current.Provider value={set}>
          <button onClick={() => force((n) => n + 1)}>again</button>
          {children}
        </Current.Provider>
      );
    }
    const slides = (at: string) => (
      <Host>
        <ul>
          {['a', 'b', 'c'].map((id) => (
            <Slide key={id} id={id} current={id === at} />
          ))}
        </ul>
      </Host>
    );
    const { rerender } = render(slides('c'));
    expect(shown).toBe('c');
    // Backwards: b comes before c in the tree, and is current after.
    log.length = 0;
    act(() => rerender(slides('b')));
    expect(log).toEqual(['clear c', 'set b']);
    expect(shown).toBe('b');
  });
});
