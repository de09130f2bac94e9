import { render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { App } from '../App';
import { listingPage, productPage } from '../test/fixtures';
import type { ViewerSettings } from '../types';

const manager: ViewerSettings = {
  logged_in: true,
  can_edit_pages: true,
  id: 3,
  display_name: 'Mia Manager',
  logout_url: '/my-account/customer-logout/?_wpnonce=n',
  rest_nonce: 'aaaaaaaaaa',
  coming_soon_banner: { rest_url: '/wp-json/wp/v2/users/3', rest_nonce: 'aaaaaaaaaa' },
};

describe('the frame on pages', () => {
  it('a visitor sees My account in the header, no edit links and no banner', () => {
    render(<App data={productPage(16)} />);
    const account = screen.getByRole('navigation', { name: 'Account' });
    expect(within(account).getByRole('link', { name: 'My account' })).toHaveAttribute('href', '/my-account/');
    expect(screen.queryByRole('link', { name: /in the visual builder/ })).toBeNull();
    expect(document.getElementById('coming-soon-footer-banner')).toBeNull();
  });

  it('staff see the product block edit links and the banner in the footer', () => {
    const data = productPage(16);
    data.settings = { ...data.settings, user: manager };
    data.edit_links = [{ block: 'product', label: 'Edit Beanie', builder_url: '/wp-admin/post.php?post=16&action=edit&app=uxbuilder', editor_url: '/wp-admin/post.php?post=16&action=edit' }];
    render(<App data={data} />);
    expect(screen.getByRole('link', { name: 'Edit Beanie in the visual builder' })).toHaveAttribute('href', data.edit_links[0].builder_url);
    expect(screen.getByRole('link', { name: 'Log out' })).toBeInTheDocument();
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('region', { name: 'Coming soon mode' })).toBeInTheDocument();
  });

  it('the category block gets its own links, and the server render matches', () => {
    const data = listingPage({ title: 'Hoodies' });
    data.settings = { ...data.settings, user: manager };
    data.edit_links = [{ block: 'category', label: 'Edit Hoodies', builder_url: '/b', editor_url: '/e' }];
    const html = renderToString(<App data={data} />);
    expect(html).toContain('Edit Hoodies in the backend editor</a>');
    expect(html).toContain('id="coming-soon-footer-banner"');
  });
});
