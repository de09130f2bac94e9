import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { Layout } from './Layout';
import { MobileSearch } from './MobileSearch';
import { FooterDetails } from './SiteFooter';
import { RecentlyViewed } from '../product/RecentlyViewed';
import { readViewed, rememberViewed, RECENTLY_VIEWED_KEY, RECENTLY_VIEWED_MAX } from '../product/recently-viewed';
import { PrivacyText } from '../ui/PrivacyText';
import { ContactForm } from '../contact/ContactForm';
import { listingPage, products } from '../test/fixtures';
import type { ContactFormData, ShopDetails } from '../types';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the phone header search', () => {
  it('is a named button that opens the search box with the focus in its field; Escape closes it', async () => {
    const user = userEvent.setup();
    render(<MobileSearch search="" categories={[]} />);
    const button = screen.getByRole('button', { name: 'Search products' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.getElementById('mobile-search')!.hidden).toBe(true);

    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const box = document.getElementById('mobile-search')!;
    expect(box.hidden).toBe(false);
    const field = within(box).getByRole('combobox');
    expect(document.activeElement).toBe(field);
    expect(field.closest('form')!.getAttribute('action')).toBe('/');

    await user.keyboard('{Escape}');
    expect(box.hidden).toBe(true);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);

    // The button again closes it too.
    await user.click(button);
    await user.click(button);
    expect(box.hidden).toBe(true);
  });

  it('is in the header the server renders, closed', () => {
    const html = renderToString(<Layout data={listingPage()}>x</Layout>);
    expect(html).toContain('aria-label="Search products"');
    expect(html).toMatch(/id="mobile-search"[^>]*hidden/);
  });
});

const shop: ShopDetails = {
  address_lines: ['12 Market St', '97201 Portland', 'US'],
  email: 'hello@fern.example',
  phone: '+1 (555) 0100-200',
  social: [
    { network: 'instagram', label: 'Instagram', url: 'https://www.instagram.com/fern' },
    { network: 'youtube', label: 'YouTube', url: 'https://youtube.com/@fern' },
  ],
  payments: ['bacs', 'cod', 'paypal'],
};
const legalPages = [
  { title: 'About us', url: '/about/' },
  { title: 'Privacy policy', url: '/privacy-policy/' },
  { title: 'Terms and conditions', url: '/terms/' },
];

describe('the footer', () => {
  it('shows the contact details, profiles, payment methods, legal links and © year with the shop name', () => {
    render(<FooterDetails name="Fern &amp; Fig" shop={shop} pages={legalPages} year={2031} />);
    const contact = screen.getByRole('region', { name: 'Contact' });
    expect(contact.textContent).toContain('12 Market St');
    expect(within(contact).getByRole('link', { name: 'hello@fern.example' }).getAttribute('href')).toBe('mailto:hello@fern.example');
    expect(within(contact).getByRole('link', { name: '+1 (555) 0100-200' }).getAttribute('href')).toBe('tel:+15550100200');

    const social = screen.getByRole('navigation', { name: 'Social media' });
    expect(within(social).getByRole('link', { name: 'Instagram' }).getAttribute('href')).toBe('https://www.instagram.com/fern');

    const pay = screen.getByRole('region', { name: 'We accept' });
    const items = within(pay).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['Bank transfer', 'Cash on delivery', 'PayPal']);
    for (const svg of pay.querySelectorAll('svg')) expect(svg.getAttribute('aria-hidden')).toBe('true');

    const legal = screen.getByRole('navigation', { name: 'Legal' });
    expect(within(legal).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['/privacy-policy/', '/terms/']);
    expect(screen.getByText('© 2031 Fern & Fig')).toBeTruthy();
  });

  it('leaves out what the shop has not set, and takes the year from the page data', () => {
    const data = listingPage({ year: 2040 });
    data.settings = { ...data.settings, shop: { address_lines: [], social: [], payments: ['cod'] } };
    render(<Layout data={data}>x</Layout>);
    expect(screen.queryByRole('region', { name: 'Contact' })).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Social media' })).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Legal' })).toBeNull();
    expect(within(screen.getByRole('region', { name: 'We accept' })).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByText(/© 2040/)).toBeTruthy();
  });
});

describe('the privacy policy links', () => {
  it('the checkout and registration sentence links the published policy, and is absent without one', () => {
    const { container, rerender } = render(<PrivacyText pages={legalPages} purpose="to process your order" />);
    const link = screen.getByRole('link', { name: /Privacy policy/ });
    expect(link.getAttribute('href')).toBe('/privacy-policy/');
    expect(container.querySelector('.woocommerce-privacy-policy-text')!.textContent).toContain('We use your personal data to process your order');
    rerender(<PrivacyText pages={[{ title: 'About us', url: '/about/' }]} purpose="to process your order" />);
    expect(container.innerHTML).toBe('');
  });

  it("the contact form's consent line links it", () => {
    const form = {
      id: 1,
      unit_tag: 'wpcf7-f1-p1-o1',
      action: '/contact/#wpcf7-f1-p1-o1',
      locale: 'en_US',
      hidden: [],
      fields: [{ name: 'your-consent', label: "I agree to the shop's privacy policy and terms.", kind: 'acceptance', required: true }],
      submit: 'Send',
    } as unknown as ContactFormData;
    render(<ContactForm form={form} privacyUrl="/privacy-policy/" />);
    const link = screen.getByRole('link', { name: /privacy policy/ });
    expect(link.getAttribute('href')).toBe('/privacy-policy/');
    expect(link.closest('label')!.textContent).toContain("I agree to the shop's privacy policy (opens in a new tab) and terms.");
  });
});

describe('recently viewed products', () => {
  it('keeps product ids newest first, once each, bounded, in this browser only', () => {
    for (let id = 1; id <= RECENTLY_VIEWED_MAX + 3; id++) rememberViewed(id);
    rememberViewed(5);
    const list = readViewed();
    expect(list[0]).toBe(5);
    expect(list).toHaveLength(RECENTLY_VIEWED_MAX);
    expect(new Set(list).size).toBe(list.length);
    localStorage.setItem(RECENTLY_VIEWED_KEY, '{"not":"a list"}');
    expect(readViewed()).toEqual([]);
  });

  it('shows nothing on a first product page, then the others as cards from the Store API, not the current one', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const [a, b, c] = products;
    const first = render(<RecentlyViewed current={a.id} />);
    expect(first.container.innerHTML).toBe('');
    expect(fetchMock).not.toHaveBeenCalled();
    first.unmount();
    rememberViewed(b.id);
    fetchMock.mockResolvedValue(new Response(JSON.stringify([b, a]), { status: 200, headers: { 'Content-Type': 'application/json' } }));
    render(<RecentlyViewed current={c.id} />);
    const section = await screen.findByRole('region', { name: 'Recently viewed' });
    const url = String(fetchMock.mock.calls[0][0]);
    expect(url).toBe(`/wp-json/wc/store/v1/products?include=${b.id},${a.id}&orderby=include&per_page=2`);
    await waitFor(() => expect(section.querySelectorAll('li.product')).toHaveLength(2));
    expect(readViewed()[0]).toBe(c.id);
  });
});
