import { render, screen, act } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { ACCORDION_QUERY, Tabs, tabFromLocation, type TabDef } from './Tabs';
import { ProductPage } from './ProductPage';
import { productPage } from '../test/fixtures';

const tabs: TabDef[] = [
  { key: 'description', label: 'Description', content: <p>Desc body</p> },
  { key: 'additional_information', label: 'Additional information', content: <p>Info body</p> },
  { key: 'reviews', label: 'Reviews (2)', content: <p>Reviews body</p> },
];

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('tabFromLocation', () => {
  it.each([
    ['#reviews', '/p/', 'reviews'],
    ['#comments', '/p/', 'reviews'],
    ['#tab-reviews', '/p/', 'reviews'],
    ['#comment-12', '/p/', 'reviews'],
    ['', '/p/comment-page-2/', 'reviews'],
    ['', '/p/?cpage=2', 'reviews'],
    ['#tab-additional_information', '/p/', 'additional_information'],
    ['#other', '/p/', null],
    ['', '/p/', null],
  ])('%s %s -> %s', (hash, href, want) => {
    expect(tabFromLocation(hash, href)).toBe(want);
  });
});

describe('Tabs', () => {
  it('starts on the first tab with roving tabindex', () => {
    render(<Tabs tabs={tabs} label="Product details" />);
    const [a, b, c] = screen.getAllByRole('tab');
    expect(a).toHaveAttribute('aria-selected', 'true');
    expect(a).toHaveAttribute('tabindex', '0');
    expect(b).toHaveAttribute('tabindex', '-1');
    expect(c).toHaveAttribute('aria-controls', 'tab-reviews');
    expect(screen.getByRole('tabpanel')).toHaveAttribute('id', 'tab-description');
    expect(screen.getByText('Info body').closest('[role=tabpanel]')).not.toBeVisible();
  });

  it('moves focus and selection with arrows, Home and End', async () => {
    const user = userEvent.setup();
    render(<Tabs tabs={tabs} label="Product details" />);
    const [a, b, c] = screen.getAllByRole('tab');
    await user.click(a);
    await user.keyboard('{ArrowRight}');
    expect(b).toHaveFocus();
    expect(b).toHaveAttribute('aria-selected', 'true');
    expect(a).toHaveAttribute('aria-selected', 'false');
    expect(screen.getByRole('tabpanel')).toHaveAttribute('id', 'tab-additional_information');
    await user.keyboard('{End}');
    expect(c).toHaveFocus();
    expect(c).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowRight}'); // wraps
    expect(a).toHaveFocus();
    await user.keyboard('{ArrowLeft}'); // wraps back
    expect(c).toHaveFocus();
    await user.keyboard('{Home}');
    expect(a).toHaveFocus();
    expect(a).toHaveAttribute('aria-selected', 'true');
    expect(a).toHaveAttribute('tabindex', '0');
    expect(c).toHaveAttribute('tabindex', '-1');
  });

  it('opens reviews when the hash is #reviews', () => {
    window.history.replaceState(null, '', '/product/x/#reviews');
    render(<Tabs tabs={tabs} label="Product details" />);
    expect(screen.getByRole('tab', { name: 'Reviews (2)' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveAttribute('id', 'tab-reviews');
  });

  it('opens additional information for its hash and follows hash changes', () => {
    window.history.replaceState(null, '', '/product/x/#tab-additional_information');
    render(<Tabs tabs={tabs} label="Product details" />);
    expect(screen.getByRole('tabpanel')).toHaveAttribute('id', 'tab-additional_information');
    act(() => {
      window.history.replaceState(null, '', '/product/x/#comment-3');
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(screen.getByRole('tabpanel')).toHaveAttribute('id', 'tab-reviews');
  });
});

describe('ProductPage', () => {
  it('renders the simple add-to-cart form', () => {
    const data = productPage(16);
    render(<ProductPage data={data} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Beanie');
    const qty = screen.getByRole('spinbutton', { name: 'Quantity' });
    expect(qty).toHaveAttribute('min', '1');
    expect(qty).toHaveAttribute('max', '9999');
    expect(qty).toHaveAttribute('step', '1');
    const btn = screen.getByRole('button', { name: 'Add to cart' });
    expect(btn).toHaveAttribute('name', 'add-to-cart');
    expect(btn).toHaveAttribute('value', '16');
    expect(btn.closest('form')).toHaveAttribute('action', data.product.permalink);
    expect(screen.getByRole('tab', { name: 'Reviews (0)' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '0.2 lbs', hidden: true })).toBeInTheDocument();
  });

  it('hides the quantity for sold-individually products', () => {
    const data = productPage(16);
    data.product.sold_individually = true;
    render(<ProductPage data={data} />);
    expect(screen.queryByRole('spinbutton')).toBeNull();
  });

  it('renders the variation form with selects and a disabled button', () => {
    const data = productPage(59);
    const { container } = render(<ProductPage data={data} />);
    const form = container.querySelector('form.variations_form')!;
    expect(form).toHaveAttribute('data-product_id', '59');
    expect(JSON.parse(form.getAttribute('data-product_variations')!)).toHaveLength(3);
    // The selects stay the form fields; after hydration swatches drive them (hidden).
    const color = screen.getByRole('combobox', { name: 'Color', hidden: true });
    expect(color).toHaveAttribute('name', 'attribute_pa_color');
    expect(color).toHaveAttribute('data-attribute_name', 'attribute_pa_color');
    expect((color as HTMLSelectElement).options[0].text).toBe('Choose an option');
    expect(screen.getByRole('combobox', { name: 'Size', hidden: true })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add to cart' })).toHaveClass('disabled', 'wc-variation-selection-needed');
    // The reset link is hidden until something is chosen.
    expect(container.querySelector('a.reset_variations')).toHaveTextContent('Clear');
  });

  it('writes false when variations are not inlined', () => {
    const { container } = render(<ProductPage data={productPage(59, { variations: [] })} />);
    expect(container.querySelector('form.variations_form')).toHaveAttribute('data-product_variations', 'false');
  });

  it('renders grouped children with quantity inputs', () => {
    render(<ProductPage data={productPage(34)} />);
    expect(screen.getAllByRole('spinbutton')).toHaveLength(3);
    expect(screen.getByRole('spinbutton', { name: 'Beanie quantity' })).toHaveAttribute('name', 'quantity[16]');
  });

  it('renders an external buy link', () => {
    render(<ProductPage data={productPage(35)} />);
    expect(screen.getByRole('link', { name: 'Buy on the WordPress swag store!' })).toHaveAttribute(
      'href',
      'https://mercantile.wordpress.org/product/wordpress-pennant/',
    );
  });

  it('swaps the main image from thumbnails', async () => {
    const user = userEvent.setup();
    const data = productPage(13);
    const { container } = render(<ProductPage data={data} />);
    const main = () => container.querySelector('.product-gallery__main img')!;
    expect(main()).toHaveAttribute('src', data.product.images[0].src);
    expect(main()).toHaveAttribute('fetchpriority', 'high');
    const thumb = screen.getByRole('button', { name: `Show image 2 of ${data.product.images.length}` });
    expect(thumb).toHaveAttribute('aria-pressed', 'false');
    await user.click(thumb);
    expect(thumb).toHaveAttribute('aria-pressed', 'true');
    expect(main()).toHaveAttribute('src', data.product.images[1].src);
  });

  it('lists reviews in the reviews tab', () => {
    window.history.replaceState(null, '', '/product/beanie/#reviews');
    render(<ProductPage data={productPage(16)} />);
    expect(screen.getByRole('tabpanel')).toHaveAttribute('id', 'tab-reviews');
    expect(screen.getByText('Ana & Bo')).toBeInTheDocument();
    expect(screen.getByText('November 2, 2026')).toHaveAttribute('datetime', '2026-11-02T09:30:00+00:00');
    expect(screen.getByText('Lovely fabric, fits well.')).toBeInTheDocument();
  });

  it('says there are no reviews yet', () => {
    render(<ProductPage data={productPage(16, { reviews: [] })} />);
    expect(screen.getByText('There are no reviews yet.', { selector: 'p' })).toBeInTheDocument();
  });
});

describe('Tabs as an accordion on small screens', () => {
  let matches = true;
  const listeners = new Set<() => void>();
  beforeEach(() => {
    matches = true;
    window.matchMedia = vi.fn().mockImplementation((q: string) => ({
      get matches() {
        return q === ACCORDION_QUERY && matches;
      },
      media: q,
      addEventListener: (_: string, fn: () => void) => listeners.add(fn),
      removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
    })) as unknown as typeof window.matchMedia;
  });
  afterEach(() => {
    delete (window as { matchMedia?: unknown }).matchMedia;
    listeners.clear();
  });

  const heading = (name: string) => screen.getByRole('button', { name });

  it('is below 550 px, in the spec breakpoints', () => {
    expect(ACCORDION_QUERY).toBe('(max-width: 549px)');
  });

  it('renders the same markup on the server as tabs do, with closed accordion buttons but the first', () => {
    const html = renderToString(<Tabs tabs={tabs} label="Product details" />);
    expect(html).toContain('role="tablist"');
    expect(html).toContain('aria-expanded="true" aria-controls="tab-description"');
    expect(html).toContain('aria-expanded="false" aria-controls="tab-reviews"');
    expect(html).not.toContain('is-accordion');
  });

  it('opens one item at a time, and closes the open one on its button', async () => {
    const user = userEvent.setup();
    const { container } = render(<Tabs tabs={tabs} label="Product details" />);
    expect(container.firstElementChild).toHaveClass('is-accordion');
    const [d, a, r] = [heading('Description'), heading('Additional information'), heading('Reviews (2)')];
    expect(d).toHaveAttribute('aria-expanded', 'true');
    expect(d).toHaveAttribute('aria-controls', 'tab-description');
    // Panels are regions named by their accordion heading.
    expect(screen.getByRole('region', { name: 'Description' })).toHaveAttribute('id', 'tab-description');
    await user.click(r);
    expect(r).toHaveAttribute('aria-expanded', 'true');
    expect(d).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText('Reviews body')).toBeVisible();
    expect(screen.getByText('Desc body')).not.toBeVisible();
    await user.click(a);
    expect(screen.getByText('Info body')).toBeVisible();
    expect(screen.getByText('Reviews body')).not.toBeVisible();
    expect(r).toHaveAttribute('aria-expanded', 'false');
    await user.click(a);
    expect(a).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryAllByRole('region')).toHaveLength(0);
    expect(screen.getByText('Info body')).not.toBeVisible();
  });

  it('opens reviews for #comments, and turns back into tabs on a wide screen keeping the choice', () => {
    window.history.replaceState(null, '', '/product/x/#comments');
    render(<Tabs tabs={tabs} label="Product details" />);
    expect(heading('Reviews (2)')).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('region', { name: 'Reviews (2)' })).toBeVisible();
    matches = false;
    act(() => listeners.forEach((fn) => fn()));
    expect(screen.getByRole('tab', { name: 'Reviews (2)' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveAttribute('id', 'tab-reviews');
  });
});
