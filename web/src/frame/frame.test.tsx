import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AccountLinks } from './AccountLinks';
import { EditLinks } from './EditLinks';
import { ComingSoonBanner, DISMISS_BODY } from './ComingSoonBanner';
import type { ViewerSettings } from '../types';

const staff: ViewerSettings = {
  logged_in: true,
  can_edit_pages: true,
  id: 7,
  display_name: 'Mia Manager',
  logout_url: '/my-account/customer-logout/?_wpnonce=abc',
  rest_nonce: 'aaaaaaaaaa',
  coming_soon_banner: { rest_url: '/wp-json/wp/v2/users/7', rest_nonce: 'aaaaaaaaaa' },
};

afterEach(() => vi.unstubAllGlobals());

describe('header account links', () => {
  it('shows My account to a visitor', () => {
    render(<AccountLinks user={{ logged_in: false, can_edit_pages: false }} />);
    expect(screen.getByRole('link', { name: 'My account' })).toHaveAttribute('href', '/my-account/');
    expect(screen.queryByRole('link', { name: 'Log out' })).toBeNull();
  });
  it('shows a customer their name and the log-out link', () => {
    render(<AccountLinks user={staff} />);
    expect(screen.getByRole('link', { name: 'My account: Mia Manager' })).toHaveAttribute('href', '/my-account/');
    expect(screen.getByRole('link', { name: 'Log out' })).toHaveAttribute('href', staff.logout_url);
  });
  it('falls back to My account without a name', () => {
    render(<AccountLinks user={{ ...staff, display_name: ' ' }} />);
    expect(screen.getByRole('link', { name: 'My account' })).toBeInTheDocument();
  });
});

describe('edit links', () => {
  const links = [{ block: 'product' as const, label: 'Edit Classic Tee', builder_url: '/b', editor_url: '/e' }];
  it('renders the block’s two links with distinct names', () => {
    render(<EditLinks links={links} block="product" />);
    expect(screen.getByRole('link', { name: 'Edit Classic Tee in the visual builder' })).toHaveAttribute('href', '/b');
    expect(screen.getByRole('link', { name: 'Edit Classic Tee in the backend editor' })).toHaveAttribute('href', '/e');
  });
  it('renders nothing for another block or without links', () => {
    const { container } = render(
      <>
        <EditLinks links={links} block="category" />
        <EditLinks block="product" />
      </>,
    );
    expect(container).toBeEmptyDOMElement();
  });
});

describe('coming-soon banner', () => {
  it('is not shown without the banner setting', () => {
    const { container } = render(<ComingSoonBanner user={{ ...staff, coming_soon_banner: undefined }} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('dismisses with the form body and the nonce, then hides and hands focus back', async () => {
    const fetcher = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetcher);
    const gone = vi.fn();
    const { container } = render(<ComingSoonBanner user={staff} onGone={gone} />);
    const button = screen.getByRole('button', { name: 'Dismiss the coming-soon reminder' });
    expect(button).toHaveAttribute('data-rest-url', '/wp-json/wp/v2/users/7');
    expect(button).toHaveAttribute('data-rest-nonce', 'aaaaaaaaaa');
    expect(container.querySelector('#coming-soon-footer-banner')).not.toBeNull();
    fireEvent.click(button);
    await waitFor(() => expect(container.querySelector('#coming-soon-footer-banner')).toBeNull());
    expect(fetcher).toHaveBeenCalledTimes(1);
    const [url, init] = fetcher.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/wp-json/wp/v2/users/7');
    expect(init.method).toBe('POST');
    expect(init.body).toBe(DISMISS_BODY);
    expect(decodeURIComponent(DISMISS_BODY)).toBe('woocommerce_meta[coming_soon_banner_dismissed]=yes');
    expect((init.headers as Record<string, string>)['X-WP-Nonce']).toBe('aaaaaaaaaa');
    expect(gone).toHaveBeenCalled();
  });

  it('hides even when the call fails', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('offline'))));
    const { container } = render(<ComingSoonBanner user={staff} />);
    fireEvent.click(screen.getByRole('button'));
    await waitFor(() => expect(container.querySelector('#coming-soon-footer-banner')).toBeNull());
  });
});
