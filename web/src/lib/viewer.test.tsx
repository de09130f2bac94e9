import { act } from 'preact/test-utils';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { expectSameMarkup } from '../test/hydrate';
import { screen, within } from '@testing-library/react';
import { App } from '../App';
import { productPage } from '../test/fixtures';
import type { ProductPage } from '../types';
import { expectPageHydration } from './page-hydration';
import { readViewer, ViewerRoot, withViewer, type ViewerPart } from './viewer';

const staff: ViewerPart = {
  user: { logged_in: true, can_edit_pages: true, id: 7, display_name: 'Stella Staff', logout_url: '/my-account/customer-logout/?_wpnonce=abc', rest_nonce: '0123456789' },
  page: {
    edit_links: [{ block: 'product', label: 'Edit Beanie', builder_url: '/wp-admin/post.php?post=16&action=edit&app=uxbuilder', editor_url: '/wp-admin/post.php?post=16&action=edit' }],
    review_form: { eligible: false },
  },
};

describe('the viewer part of a shared page', () => {
  afterEach(() => document.getElementById('vitrine-viewer')?.remove());

  it('reads the part the server added, and nothing from a page without one or with junk', () => {
    expect(readViewer()).toBeNull();
    const s = document.createElement('script');
    s.id = 'vitrine-viewer';
    s.type = 'application/json';
    s.textContent = '{"user":';
    document.body.appendChild(s);
    expect(readViewer()).toBeNull();
    s.textContent = JSON.stringify(staff);
    expect(readViewer()).toEqual(staff);
  });

  it('merges the part into the page data: the user, and page fields key by key', () => {
    const data = productPage(16) as ProductPage;
    const seen = withViewer(data, staff) as ProductPage;
    expect(seen.settings.user).toEqual(staff.user);
    expect(seen.edit_links).toEqual(staff.page?.edit_links);
    // review_form keeps its other fields; eligible comes from the part
    expect(seen.review_form?.action).toBe(data.review_form?.action);
    expect(seen.review_form?.eligible).toBe(false);
    // the shared data is left as it was
    expect(data.settings.user?.logged_in).toBeFalsy();
    expect(data.edit_links).toBeUndefined();
  });

  it('hydrates the shared page cleanly, then shows the viewer their name and edit links', async () => {
    const data = productPage(16);
    const html = renderToString(<App data={data} />);
    const root = document.createElement('div');
    root.innerHTML = html;
    document.body.appendChild(root);
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    let r: ReturnType<typeof hydrateRoot> | undefined;
    try {
      // The viewer's first render is the shared page; their part comes after.
      expectSameMarkup(html, <ViewerRoot data={data} viewer={staff} />);
      expectPageHydration();
      const heading = root.querySelector('h1');
      await act(async () => {
        r = hydrateRoot(root, <ViewerRoot data={data} viewer={staff} />);
      });
      await act(async () => {
        await new Promise((res) => setTimeout(res, 0));
      });
      expect(root.querySelector('h1')).toBe(heading);
      expect(err).not.toHaveBeenCalled();
      const banner = screen.getByRole('banner');
      expect(within(banner).getByText(/Stella Staff/)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Edit Beanie in the backend editor' })).toHaveAttribute('href', '/wp-admin/post.php?post=16&action=edit');
    } finally {
      err.mockRestore();
      act(() => r?.unmount());
      root.remove();
    }
  });
});
