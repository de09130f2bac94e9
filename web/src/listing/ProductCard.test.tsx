import { render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import type { StoreProduct } from '../types';
import { ProductCard } from './ProductCard';
import { ProductGrid } from './ProductGrid';
import { product, products } from '../test/fixtures';

// A card alone in its list, the first.
const renderCard = (p: StoreProduct) =>
  render(
    <ul>
      <ProductCard product={p} index={0} />
    </ul>,
  );

describe('ProductCard', () => {
  it('renders an ajax add-to-cart link for simple products', () => {
    renderCard(product(16));
    const link = screen.getByRole('link', { name: 'Add to cart: \u201cBeanie\u201d' });
    expect(link).toHaveAttribute('href', '?add-to-cart=16');
    expect(link).toHaveAttribute('data-quantity', '1');
    expect(link).toHaveAttribute('data-product_id', '16');
    expect(link).toHaveAttribute('data-product_sku', 'woo-beanie');
    expect(link).toHaveAttribute('data-success_message', '\u201cBeanie\u201d has been added to your cart');
    expect(link).toHaveAttribute('rel', 'nofollow');
    expect(link).toHaveClass('button', 'add_to_cart_button', 'ajax_add_to_cart');
    expect(link).toHaveTextContent('Add to cart');
  });

  it('shows Sale! and Out of stock badges', () => {
    const p = product(16);
    p.is_in_stock = false;
    renderCard(p);
    expect(screen.getByText('Sale!')).toBeInTheDocument();
    expect(screen.getByText('Out of stock')).toBeInTheDocument();
    // not purchasable any more: no ajax button
    expect(document.querySelector('.ajax_add_to_cart')).toBeNull();
  });

  it('has no badges for a regular in-stock product', () => {
    renderCard(product(15));
    expect(screen.queryByText('Sale!')).toBeNull();
    expect(screen.queryByText('Out of stock')).toBeNull();
  });

  it('links variable products to their options', () => {
    renderCard(product(59));
    const link = screen.getByRole('link', { name: 'Select options for \u201cBench Tee\u201d' });
    expect(link).toHaveAttribute('href', 'https://shop.example/product/bench-tee/');
    expect(link).not.toHaveClass('ajax_add_to_cart');
  });

  it('shows stars only when there are reviews', () => {
    const p = product(15);
    p.review_count = 2;
    p.average_rating = '4.5';
    render(
      <ul>
        <ProductCard product={p} index={0} />
        <ProductCard product={product(14)} index={1} />
      </ul>,
    );
    expect(screen.getAllByRole('img', { name: /Rated/ })).toHaveLength(1);
    expect(screen.getByRole('img', { name: 'Rated 4.50 out of 5' })).toBeInTheDocument();
  });

  it('loads a phone’s first row with the page, the next two natively lazy, and the rest by script', () => {
    const { container } = render(<ProductGrid products={products.slice(0, 6)} />);
    const imgs = [...container.querySelectorAll('li.product img')];
    expect(imgs.map((i) => i.getAttribute('loading'))).toEqual(['eager', 'eager', 'lazy', 'lazy', null, null]);
    expect(imgs.slice(0, 4).every((i) => !!i.getAttribute('src'))).toBe(true); // plain images, no script needed
    // The first is the listing's largest paint on a phone: fetched ahead of the others.
    expect(imgs.map((i) => i.getAttribute('fetchpriority'))).toEqual(['high', null, null, null, null, null]);
    // The rest are lazy images (ui/LazyImage): the spec's classes, the source in data-src.
    expect(imgs.slice(4).every((i) => /\blazyload/.test(i.className) && i.getAttribute('data-src'))).toBe(true);
    expect(imgs.slice(0, 4).some((i) => /\blazy/.test(i.className))).toBe(false);
    expect(imgs[0]).toHaveAttribute('width', '800');
    expect(imgs[0].getAttribute('srcset')).toContain('300w');
    expect(imgs[0]).toHaveAttribute('sizes');
    const first = container.querySelector('li.product')!;
    expect(within(first as HTMLElement).getByRole('heading', { level: 2 })).toHaveTextContent('Bench Tee');
    expect(imgs[0]).toHaveAttribute('alt', 'Bench Tee');
  });

  // The server sends cards only what they show (internal/pages/pages.go,
  // Loader.cards): these fields emptied, the first picture kept. A card that
  // starts reading one of them fails here, and the list must grow there.
  it('shows the same from the trimmed card data the server sends', () => {
    const trim = (p: StoreProduct): StoreProduct => ({
      ...p,
      images: p.images.slice(0, 1),
      short_description: '',
      description: '',
      price_html: '',
      categories: [],
      tags: [],
      brands: [],
      attributes: [],
      variations: [],
      grouped_products: [],
      weight: '',
      formatted_weight: '',
      formatted_dimensions: '',
      dimensions: { length: '', width: '', height: '' },
    } as StoreProduct);
    expect(products.length).toBeGreaterThan(5);
    for (const p of products) {
      for (const index of [0, 8]) {
        const full = renderToString(<ProductCard product={p} index={index} headingLevel={3} />);
        expect(renderToString(<ProductCard product={trim(p)} index={index} headingLevel={3} />), p.name).toBe(full);
      }
    }
  });
});

