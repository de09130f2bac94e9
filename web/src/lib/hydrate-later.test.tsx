import { useId, useState } from 'react';
import { renderToString } from 'react-dom/server';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Later, hydrateInParts, partsHydrated } from './hydrate-later';
import { useHydrated } from '../listing/hydrated';

// A new task: after the tasks already posted (the parts' turns).
const task = () => new Promise<void>((r) => setTimeout(r, 0));

const log: string[] = [];

function Counter({ name }: { name: string }) {
  const [n, setN] = useState(0);
  log.push(name);
  return (
    <div className={`part-${name}`}>
      <button type="button" onClick={() => setN(n + 1)}>
        {name} {n}
      </button>
    </div>
  );
}

function Page() {
  log.push('page');
  return (
    <main>
      <Counter name="top" />
      <Later>
        <Counter name="a" />
      </Later>
      <p className="between">text</p>
      <Later>
        <Counter name="b" />
      </Later>
    </main>
  );
}

function mount() {
  const html = renderToString(<Page />);
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.appendChild(root);
  return { root, html };
}

describe('hydration in parts', () => {
  afterEach(() => {
    document.body.innerHTML = '';
    log.length = 0;
  });

  it('renders a Later part at once outside hydration, with no markup of its own', () => {
    const html = renderToString(<Later><p>hi</p></Later>);
    expect(html).toBe('<p>hi</p>');
  });

  it('hydrates the parts after the first pass, in document order, on the server’s nodes', async () => {
    const { root, html } = mount();
    const a = root.querySelector('.part-a button');
    const b = root.querySelector('.part-b button');
    const err = vi.spyOn(console, 'error');
    log.length = 0;
    hydrateInParts(() => hydrateRoot(root, <Page />), root);
    await Promise.resolve();
    // The first pass: the page and its part not wrapped in Later.
    expect(log).toEqual(['page', 'top']);
    // The parts' server HTML is there, untouched.
    expect(root.innerHTML).toBe(html);
    const done = partsHydrated();
    await done;
    expect(log).toEqual(['page', 'top', 'a', 'b']);
    expect(root.innerHTML).toBe(html);
    // The same nodes, now live.
    expect(root.querySelector('.part-a button')).toBe(a);
    expect(root.querySelector('.part-b button')).toBe(b);
    (b as HTMLButtonElement).click();
    await task();
    expect(b?.textContent).toBe('b 1');
    expect(err).not.toHaveBeenCalled();
    err.mockRestore();
  });

  it('a click before its part is live is held, every part hydrated, and the click made again', async () => {
    const { root } = mount();
    hydrateInParts(() => hydrateRoot(root, <Page />), root);
    const b = root.querySelector<HTMLButtonElement>('.part-b button')!;
    const clicked = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    b.dispatchEvent(clicked);
    expect(clicked.defaultPrevented).toBe(true);
    await partsHydrated();
    await task();
    expect(b.textContent).toBe('b 1');
    expect(root.querySelector('.part-a button')?.textContent).toBe('a 0');
    // Once all is live, clicks are not held.
    const later = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    b.dispatchEvent(later);
    expect(later.defaultPrevented).toBe(false);
    await task();
    expect(b.textContent).toBe('b 2');
  });

  it('a part inside a part hydrates right after it, before the parts that follow', async () => {
    function Nested() {
      log.push('page');
      return (
        <main>
          <Later>
            <section className="outer">
              <Counter name="outer" />
              <Later>
                <Counter name="inner" />
              </Later>
            </section>
          </Later>
          <Later>
            <Counter name="after" />
          </Later>
        </main>
      );
    }
    const html = renderToString(<Nested />);
    const root = document.createElement('div');
    root.innerHTML = html;
    document.body.appendChild(root);
    const inner = root.querySelector('.part-inner button');
    log.length = 0;
    hydrateInParts(() => hydrateRoot(root, <Nested />), root);
    await partsHydrated();
    expect(log).toEqual(['page', 'outer', 'inner', 'after']);
    expect(root.innerHTML).toBe(html);
    expect(root.querySelector('.part-inner button')).toBe(inner);
    (inner as HTMLButtonElement).click();
    await task();
    expect(inner?.textContent).toBe('inner 1');
  });

  it('a Later rendered in the browser, not hydrated, renders at once, even while parts wait', async () => {
    const { root } = mount();
    hydrateInParts(() => hydrateRoot(root, <Page />), root);
    const host = document.createElement('div');
    document.body.appendChild(host);
    log.length = 0;
    const fresh = createRoot(host);
    fresh.render(<Later><Counter name="fresh" /></Later>);
    expect(log).toEqual(['fresh']);
    expect(host.querySelector('.part-fresh button')?.textContent).toBe('fresh 0');
    fresh.unmount();
    await partsHydrated();
  });

  it('ids from useId in a part are the server’s, whatever the order parts hydrate in', async () => {
    function Qty({ name }: { name: string }) {
      const id = useId();
      const [n, setN] = useState(0);
      // Script-only, as the quantity buttons: rendered by the browser after hydration.
      const hydrated = useHydrated();
      return (
        <p className={`qty-${name}`}>
          <input id={id} value={n} readOnly />
          {hydrated && (
            <button type="button" aria-controls={id} data-n={n} onClick={() => setN(n + 1)}>
              +
            </button>
          )}
        </p>
      );
    }
    function Ids() {
      return (
        <main>
          <Qty name="top" />
          <Later>
            <section>
              <Qty name="a" />
              <Later>
                <Qty name="inner" />
              </Later>
            </section>
          </Later>
          <Qty name="middle" />
          <Later>
            <Qty name="b" />
          </Later>
          <Qty name="bottom" />
        </main>
      );
    }
    const html = renderToString(<Ids />);
    const root = document.createElement('div');
    root.innerHTML = html;
    document.body.appendChild(root);
    const serverIds = [...root.querySelectorAll('input')].map((i) => i.id);
    expect(new Set(serverIds).size).toBe(6);
    hydrateInParts(() => hydrateRoot(root, <Ids />), root);
    await partsHydrated();
    // Every button, rendered by the browser, names its field's (server) id.
    await task();
    expect(root.querySelectorAll('button').length).toBe(6);
    for (const b of root.querySelectorAll('button')) b.click();
    await task();
    for (const p of root.querySelectorAll('p')) {
      const input = p.querySelector('input')!;
      const button = p.querySelector('button')!;
      expect(button.dataset.n).toBe('1');
      expect(button.getAttribute('aria-controls')).toBe(input.id);
    }
    expect([...root.querySelectorAll('input')].map((i) => i.id)).toEqual(serverIds);
  });

  it('a click held on an icon inside a button is made again on the button', async () => {
    function Icon() {
      const [n, setN] = useState(0);
      return (
        <button type="button" className="icon" data-n={n} onClick={() => setN(n + 1)}>
          <svg viewBox="0 0 1 1">
            <path d="M0 0h1" />
          </svg>
        </button>
      );
    }
    const App = () => (
      <main>
        <Later>
          <Icon />
        </Later>
      </main>
    );
    const html = renderToString(<App />);
    const root = document.createElement('div');
    root.innerHTML = html;
    document.body.appendChild(root);
    hydrateInParts(() => hydrateRoot(root, <App />), root);
    const path = root.querySelector('path')!;
    path.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    await partsHydrated();
    await task();
    expect(root.querySelector('button')?.dataset.n).toBe('1');
  });

  it('a first pass that throws still stops holding clicks, and makes the held one again', async () => {
    const { root } = mount();
    const link = document.createElement('a');
    link.href = '#next';
    root.appendChild(link);
    const followed = vi.fn((e: Event) => e.preventDefault());
    expect(() =>
      hydrateInParts(() => {
        throw new Error('broken page');
      }, root),
    ).toThrow('broken page');
    const held = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    link.dispatchEvent(held);
    expect(held.defaultPrevented).toBe(true);
    link.addEventListener('click', followed);
    await partsHydrated();
    await task();
    expect(followed).toHaveBeenCalledTimes(1);
    // Once done, a click is not held: it reaches the link's own listeners at once.
    followed.mockClear();
    link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    expect(followed).toHaveBeenCalledTimes(1);
  });

  it('a click with a modifier key (a new tab) is left alone', async () => {
    const { root } = mount();
    hydrateInParts(() => hydrateRoot(root, <Page />), root);
    const a = root.querySelector<HTMLButtonElement>('.part-a button')!;
    const ev = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ctrlKey: true });
    a.dispatchEvent(ev);
    expect(ev.defaultPrevented).toBe(false);
    await partsHydrated();
    await task();
    expect(a.textContent).toBe('a 0');
  });
});
