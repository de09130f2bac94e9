import { afterEach, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { expectHydratesCleanly } from '../test/hydrate';
import { App } from '../App';
import { StoreNotice, noticeCookie, noticeDismissed, NOTICE_COOKIE_MAX_AGE } from './StoreNotice';
import { homePage, productPage, settings, site } from '../test/fixtures';
import type { ComingSoonPage, PageData } from '../types';

const notice = { id: '5d41402abc4b2a76b9719d911017c592', html: 'Free shipping <strong>this week</strong>' };

function clearCookies() {
  for (const c of document.cookie.split(';')) {
    const name = c.split('=')[0].trim();
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  }
}

afterEach(() => {
  clearCookies();
  document.documentElement.className = '';
});

async function hydrates(data: PageData) {
  const html = renderToString(<App data={data} />);
  await expectHydratesCleanly(html, data);
  return html;
}

describe('the store notice', () => {
  it('the cookie is store_notice<id>=hidden at the root, long-lived, SameSite=Lax (Secure on https)', () => {
    expect(noticeCookie('abc', false)).toBe(`store_noticeabc=hidden; path=/; max-age=${NOTICE_COOKIE_MAX_AGE}; SameSite=Lax`);
    expect(noticeCookie('abc', true)).toMatch(/; Secure$/);
    expect(NOTICE_COOKIE_MAX_AGE).toBeGreaterThanOrEqual(365 * 24 * 3600);
    expect(noticeDismissed('abc', 'a=1; store_noticeabc=hidden')).toBe(true);
    expect(noticeDismissed('abc', 'store_noticeabcd=hidden; store_noticeab=hidden')).toBe(false);
  });

  it('is a labelled region above the header, in the server HTML, with a clearly labelled Dismiss button and no live region', async () => {
    const data = homePage();
    data.settings = { ...data.settings, store_notice: notice };
    const html = await hydrates(data);
    expect(html).toContain(`data-notice-id="${notice.id}"`);
    expect(html).toContain('Free shipping <strong>this week</strong>');
    expect(html.indexOf('store-notice')).toBeLessThan(html.indexOf('<header'));
    expect(html.indexOf('Skip to content')).toBeLessThan(html.indexOf('store-notice'));
    render(<App data={data} />);
    const region = screen.getByRole('region', { name: 'Store notice' });
    expect(region).not.toHaveAttribute('aria-live');
    expect(region.querySelector('[aria-live], [role=status], [role=alert]')).toBeNull();
    expect(within(region).getByRole('button', { name: 'Dismiss the store notice' })).toHaveTextContent('Dismiss');
  });

  it('Dismiss sets the cookie, hides it through the <html> class and moves focus to the shop name', async () => {
    const u = userEvent.setup();
    const data = productPage(16);
    data.settings = { ...data.settings, store_notice: notice };
    render(<App data={data} />);
    await u.click(screen.getByRole('button', { name: 'Dismiss the store notice' }));
    expect(document.cookie).toContain(`store_notice${notice.id}=hidden`);
    expect(document.documentElement).toHaveClass('store-notice-hidden');
    expect(screen.getByRole('link', { name: 'Vitrine' })).toHaveFocus();
  });

  it('with the cookie set, the page still hydrates cleanly and <html> carries the hiding class', async () => {
    document.cookie = `store_notice${notice.id}=hidden; path=/`;
    const data = homePage();
    data.settings = { ...data.settings, store_notice: notice };
    await hydrates(data);
    expect(document.documentElement).toHaveClass('store-notice-hidden');
  });

  it('another notice’s cookie does not hide this one; no notice renders nothing', () => {
    document.cookie = 'store_noticeolder=hidden; path=/';
    render(<StoreNotice notice={notice} />);
    expect(document.documentElement).not.toHaveClass('store-notice-hidden');
    const { container } = render(<StoreNotice />);
    expect(container).toBeEmptyDOMElement();
  });
});

describe('the coming-soon page', () => {
  const data: ComingSoonPage = { page: 'coming-soon', site, url: '/', nav: [], settings };

  it('is the shop name, one heading, the message and the staff login link; no shop frame', async () => {
    const html = await hydrates(data);
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(html).not.toContain('site-header');
    expect(html).not.toContain('Product categories');
    render(<App data={data} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Coming soon');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'content');
    expect(screen.getByRole('link', { name: 'log in' })).toHaveAttribute('href', '/my-account/');
    expect(screen.queryByRole('search')).toBeNull();
    expect(screen.queryByRole('button', { name: /Cart/ })).toBeNull();
  });

  it('the staff banner now says visitors see the coming-soon page', () => {
    const d = homePage();
    d.settings = {
      ...d.settings,
      user: { logged_in: true, can_edit_pages: true, id: 1, coming_soon_banner: { rest_url: '/wp-json/wp/v2/users/1', rest_nonce: 'n' } },
    };
    render(<App data={d} />);
    expect(screen.getByRole('region', { name: 'Coming soon mode' })).toHaveTextContent('visitors see a coming-soon page');
  });
});
