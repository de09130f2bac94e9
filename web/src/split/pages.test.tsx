import { renderToString } from 'react-dom/server';
import { act } from 'preact/test-utils';
import { hydrate, render } from 'preact';
import * as staticPages from './pages';
import * as clientPages from './pages.client';
import { homePage, productPage } from '../test/fixtures';
import type { PageData } from '../types';

describe('split pages', () => {
  it('the browser build exports the same pages as the static module', () => {
    expect(Object.keys(clientPages).sort()).toEqual(Object.keys(staticPages).sort());
    for (const [name, v] of Object.entries(clientPages)) {
      if (name === 'preloadPage') continue;
      expect(typeof (v as { preload?: unknown }).preload, name).toBe('function');
    }
  });

  it('hydrates the server HTML in one pass once the page chunk is loaded, adopting the server nodes', async () => {
    const data: PageData = homePage();
    const { App: ServerApp } = await import('../App');
    const html = renderToString(<ServerApp data={data} />);

    // A fresh module graph where App imports the chunked pages, as in the browser build.
    vi.resetModules();
    vi.doMock('./pages', () => import('./pages.client'));
    const { App } = await import('../App');
    const { preloadPage } = await import('./pages');
    await preloadPage(data.page);
    const root = document.createElement('div');
    root.innerHTML = html;
    document.body.appendChild(root);
    const heading = root.querySelector('h1');
    const hero = root.querySelector('.hero-carousel, .hero');
    expect(hero).not.toBeNull();
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    await act(async () => {
      hydrate(<App data={data} />, root);
    });
    expect(root.querySelector('h1')).toBe(heading);
    expect(root.querySelector('.hero-carousel, .hero')).toBe(hero);
    expect(err).not.toHaveBeenCalled();
    err.mockRestore();
    act(() => render(null, root));
    root.remove();
    vi.doUnmock('./pages');
  });

  it('a page rendered before its chunk is loaded waits for it, then shows', async () => {
    vi.resetModules();
    vi.doMock('./pages', () => import('./pages.client'));
    const { App } = await import('../App');
    const data: PageData = productPage(16);
    const root = document.createElement('div');
    document.body.appendChild(root);
    await act(async () => {
      render(<App data={data} />, root);
    });
    await vi.waitFor(() => expect(root.querySelector('.product_title')).not.toBeNull());
    act(() => render(null, root));
    root.remove();
    vi.doUnmock('./pages');
  });
});
