import { renderToString } from 'react-dom/server';
import * as staticPages from './pages';
import * as clientPages from './pages.client';
import { homePage } from '../test/fixtures';
import type { PageData } from '../types';

describe('split pages', () => {
  it('the browser build exports the same pages as the static module', () => {
    expect(Object.keys(clientPages).sort()).toEqual(Object.keys(staticPages).sort());
    for (const v of Object.values(clientPages)) {
      expect((v as { $$typeof?: symbol }).$$typeof).toBe(Symbol.for('react.lazy'));
    }
  });

  it('hydrates the server HTML with the lazy page without a mismatch and keeps it until the chunk is in', async () => {
    const data: PageData = homePage();
    const { App: ServerApp } = await import('../App');
    const html = renderToString(<ServerApp data={data} />);
    expect(html).toContain('<!--$-->'); // the Suspense boundary the client resumes

    // A fresh module graph where App imports the lazy pages, as in the browser build.
    vi.resetModules();
    vi.doMock('./pages', () => import('./pages.client'));
    const React = await import('react');
    const { hydrateRoot } = await import('react-dom/client');
    const { App } = await import('../App');
    const root = document.createElement('div');
    root.innerHTML = html;
    document.body.appendChild(root);
    const heading = root.querySelector('h1');
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    const recoverable: unknown[] = [];
    let r: ReturnType<typeof hydrateRoot> | undefined;
    await React.act(async () => {
      r = hydrateRoot(root, <App data={data} />, { onRecoverableError: (e) => recoverable.push(e) });
    });
    // The lazy chunk resolves within act; the server's nodes were adopted, not replaced.
    await vi.waitFor(() => expect(root.querySelector('.hero-carousel, .hero')).not.toBeNull());
    expect(root.querySelector('h1')).toBe(heading);
    expect(recoverable).toEqual([]);
    expect(err).not.toHaveBeenCalled();
    err.mockRestore();
    React.act(() => r!.unmount());
    root.remove();
    vi.doUnmock('./pages');
  });
});
