import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { App } from '../App';
import { homePage, productPage } from '../test/fixtures';
import type { QuickViewPage } from '../types';

function quickviewPage(id: number): QuickViewPage {
  return { ...productPage(id), page: 'quickview' };
}

describe('quickview page kind', () => {
  it('renders only the quick-view content: no layout, no dialog', () => {
    const html = renderToString(<App data={quickviewPage(16)} />);
    expect(html).not.toContain('site-header');
    expect(html).not.toContain('<dialog');
    expect(html).not.toContain('<main');
    expect(html).toContain('View full details');
    expect(html).toContain('class="cart"');
  });

  it('has the slider, name, price, short description, stock and the simple cart form', () => {
    const { container } = render(<App data={quickviewPage(16)} />);
    expect(screen.getByRole('heading', { level: 2, name: 'Beanie' })).toBeInTheDocument();
    expect(container.querySelector('.price')).not.toBeNull();
    expect(container.querySelector('form.cart input.qty')).not.toBeNull();
    expect(container.querySelector('form.cart button.single_add_to_cart_button')).not.toBeNull();
    expect(screen.getByRole('link', { name: 'View full details' })).toHaveAttribute('href', productPage(16).product.permalink);
  });

  it('variable products get the variation form', () => {
    const { container } = render(<App data={quickviewPage(59)} />);
    const form = container.querySelector('form.variations_form')!;
    expect(form).not.toBeNull();
    expect(form.getAttribute('data-product_variations')).not.toBe('false');
  });

  it('the slider moves with Previous / Next', () => {
    const data = quickviewPage(59);
    const images = data.product.images;
    if (images.length < 2) data.product.images = [images[0], { ...images[0], id: 999, src: '/second.jpg', srcset: '' }];
    render(<App data={data} />);
    const img = () => document.querySelector('.quickview__slide img')!.getAttribute('src');
    const first = img();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(img()).not.toBe(first);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(img()).toBe(first);
  });
});

describe('quick view dialog', () => {
  beforeEach(() => {
    HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
    };
    HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
      this.removeAttribute('open');
      this.dispatchEvent(new Event('close'));
    };
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q.includes('reduce'), media: q, addEventListener() {}, removeEventListener() {} }));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('opens from a card, loads the product page data, closes and gives focus back', async () => {
    const home = homePage();
    const target = home.featured[0];
    const page = productPage(target.id);
    const fetchMock = vi.fn(async () =>
      new Response(`<html><body><script id="vitrine-data" type="application/json">${JSON.stringify(page)}</script></body></html>`),
    );
    vi.stubGlobal('fetch', fetchMock);
    render(<App data={home} />);
    const button = screen.getAllByRole('button', { name: /^Quick view/ })[0];
    button.focus();
    fireEvent.click(button);
    const dialog = document.querySelector('dialog.quickview-dialog')!;
    expect(dialog).toHaveAttribute('open');
    const title = document.getElementById(dialog.getAttribute('aria-labelledby')!)!;
    expect(title).toHaveTextContent(page.product.name.replace(/&amp;/g, '&'));
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect((fetchMock.mock.calls[0] as unknown[])[0]).toBe(target.permalink);
    await screen.findByRole('link', { name: 'View full details' });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(document.querySelector('dialog.quickview-dialog')).toBeNull());
    expect(document.activeElement).toBe(button);
  });

  it('shows an error when the product cannot be loaded', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('x', { status: 500 })));
    render(<App data={homePage()} />);
    await act(async () => fireEvent.click(screen.getAllByRole('button', { name: /^Quick view/ })[1]));
    expect(await screen.findByRole('alert')).toHaveTextContent('The content could not be loaded.');
  });
});
