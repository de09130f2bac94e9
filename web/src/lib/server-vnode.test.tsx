// Testing Library marks the environment as one that supports act.
import '@testing-library/react';
import { options } from 'preact';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from '../App';
import { expectHydratesCleanly } from '../test/hydrate';
import { allPages, productPage } from '../test/fixtures';
import { installServerVnodeHook, uninstallServerVnodeHook, withoutTeardownHooks } from './server-vnode';

/** Each start tag's attributes in name order: the hook keeps props in source order, compat moved class last. */
function sortedAttributes(html: string): string {
  return html.replace(/<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)(\s*\/?)>/g, (_, tag: string, attrs: string, end: string) => {
    const list = (attrs.match(/\s+[^\s=>/]+(?:="[^"]*")?/g) ?? []).map((a) => a.trim()).sort();
    return `<${tag}${list.map((a) => ' ' + a).join('')}${end}>`;
  });
}

/**
 * jsdom is a DOM, so there compat drops a noscript's children as React does
 * in a browser; the server keeps them (QuickJS has no document), as this
 * hook does. The comparison leaves noscript contents out.
 */
const noscriptEmptied = (html: string) => html.replace(/<noscript>[\s\S]*?<\/noscript>/g, '<noscript></noscript>');

function both(node: () => ReactNode): { compat: string; server: string } {
  const compat = renderToString(node());
  installServerVnodeHook();
  try {
    return { compat, server: renderToString(node()) };
  } finally {
    uninstallServerVnodeHook();
  }
}

describe('the server’s host-element hook', () => {
  afterEach(() => uninstallServerVnodeHook());

  it('writes every page as compat does, attributes aside from their order', () => {
    for (const [name, data] of allPages()) {
      const { compat, server } = both(() => <App data={data} />);
      expect(sortedAttributes(noscriptEmptied(server)), name).toBe(sortedAttributes(noscriptEmptied(compat)));
    }
  });

  it('writes every page the same without the teardown hooks, and puts them back after', () => {
    const o = options as unknown as { diffed?: unknown; unmount?: unknown };
    const { diffed, unmount } = o;
    expect(typeof diffed).toBe('function');
    expect(typeof unmount).toBe('function');
    installServerVnodeHook();
    for (const [name, data] of allPages()) {
      const full = renderToString(<App data={data} />);
      let seen: unknown[] = [];
      const lean = withoutTeardownHooks(() => {
        seen = [o.diffed, o.unmount];
        return renderToString(<App data={data} />);
      });
      expect(seen, name).toEqual([undefined, undefined]);
      expect(lean, name).toBe(full);
    }
    expect(o.diffed).toBe(diffed);
    expect(o.unmount).toBe(unmount);
    expect(() =>
      withoutTeardownHooks(() => {
        throw new Error('render failed');
      }),
    ).toThrow('render failed');
    expect(o.diffed).toBe(diffed);
    expect(o.unmount).toBe(unmount);
  });

  it('writes React’s prop names, form defaults, styles and SVG as compat does', () => {
    const form = () => (
      <form>
        <label htmlFor="q" className="l" tabIndex={-1}>
          Q
        </label>
        <input id="q" defaultValue="a&quot;b" maxLength={5} autoComplete="off" readOnly />
        <input type="checkbox" defaultChecked aria-checked={false} />
        <textarea defaultValue="x < y" />
        <select defaultValue="b" name="s">
          <option value="a">A</option>
          <option value="b">B</option>
        </select>
        <select value="a" onChange={() => {}}>
          <option value="a">A</option>
        </select>
        <div style={{ width: 10, opacity: 0.5, zIndex: 3, lineHeight: 1.5, '--x': '1px' } as never} className="s" />
        <svg viewBox="0 0 10 10" aria-hidden="true">
          <path strokeWidth={2} strokeLinecap="round" fillOpacity={0.5} d="M0 0" />
          <use xlinkHref="#i" />
        </svg>
        <button type="button" onClick={() => {}} disabled={false}>
          b
        </button>
      </form>
    );
    const { compat, server } = both(form);
    expect(sortedAttributes(server)).toBe(sortedAttributes(compat));
    expect(server).toContain('<option value="b" selected>');
    expect(server).not.toContain('defaultvalue');
    expect(server).toContain('stroke-width="2"');
    expect(server).toContain('for="q"');
  });

  it('hydrates cleanly from what it writes', async () => {
    const data = productPage(59);
    const { server } = both(() => <App data={data} />);
    await expectHydratesCleanly(server, data, { name: 'variable product' });
  });

  it('leaves compat’s hook in place when taken off, and installs once', () => {
    const compatHook = options.vnode;
    installServerVnodeHook();
    const mine = options.vnode;
    expect(mine).not.toBe(compatHook);
    installServerVnodeHook();
    expect(options.vnode).toBe(mine);
    uninstallServerVnodeHook();
    expect(options.vnode).toBe(compatHook);
  });
});
