import { render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { App } from './App';
import { expectHydratesCleanly } from './test/hydrate';
import { allPages, homePage, listingPage, notFoundPage, productPage } from './test/fixtures';

describe('App', () => {
  it('picks the home page', () => {
    render(<App data={homePage()} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Vitrine');
    expect(screen.getByRole('link', { name: 'Shop now' })).toHaveAttribute('href', '/shop/');
    expect(screen.getByRole('heading', { name: 'Featured' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'New arrivals' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Clothing/, level: 3 })).toBeInTheDocument(); // its tile
    expect(screen.getByRole('region', { name: 'Featured collections' })).toHaveAttribute('aria-roledescription', 'carousel');
  });

  it('picks the listing page', () => {
    render(<App data={listingPage({ title: 'Hoodies' })} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Hoodies');
    expect(screen.getByRole('combobox', { name: 'Shop order' })).toBeInTheDocument();
  });

  it('picks the product page', () => {
    render(<App data={productPage(16)} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Beanie');
    expect(screen.getByRole('tablist')).toBeInTheDocument();
  });

  it('picks the not-found page', () => {
    render(<App data={notFoundPage()} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Page not found');
    expect(screen.getAllByRole('search')).toHaveLength(2);
  });

  it('has the layout landmarks', () => {
    render(<App data={homePage()} />);
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#content');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'content');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Product categories' });
    expect(nav.querySelector('a[href="/product-category/clothing/tshirts/"]')).not.toBeNull();
    const search = screen.getByRole('combobox', { name: 'Search for products' });
    expect(search).toHaveAttribute('name', 's');
    expect(search.closest('form')!.querySelector('input[name=post_type]')).toHaveAttribute('value', 'product');
    // Once scripts run, the cart link is the button of the mini-cart disclosure (still a link to /cart/).
    const cart = screen.getByRole('button', { name: 'Cart (0 items)' });
    expect(cart).toHaveAttribute('href', '/cart/');
    expect(cart).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('server render', () => {
  it.each(allPages())('renders %s to a string with exactly one h1', (_name, data) => {
    const html = renderToString(<App data={data} />);
    expect(html).toContain('id="content"');
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(allPages())('hydrates %s without warnings', async (name, data) => {
    await expectHydratesCleanly(renderToString(<App data={data} />), data, { name, warnings: true });
  });
});
