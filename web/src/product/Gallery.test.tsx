import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { Gallery } from './Gallery';
import { imageErrorMessage, largestSource, parseSrcset, zoomOrigin } from './gallery-helpers';
import { render as serverRender } from '../entry-server';
import { App } from '../App';
import { productPage, product } from '../test/fixtures';

const hoodie = () => product(13); // four images

describe('gallery helpers', () => {
  it('parses a srcset with heights from the ratio', () => {
    expect(parseSrcset('a.jpg 800w, b.jpg 300w', 800, 400)).toEqual([
      { src: 'a.jpg', width: 800, height: 400 },
      { src: 'b.jpg', width: 300, height: 150 },
    ]);
    expect(parseSrcset('', 800, 800)).toBeUndefined();
    expect(parseSrcset('a.jpg 2x', 800, 800)).toBeUndefined();
  });

  it('picks the largest source for the zoom', () => {
    expect(largestSource({ src: 's.jpg', srcset: 's.jpg 600w, l.jpg 1200w', width: 600, height: 600 })).toBe('l.jpg');
    expect(largestSource({ src: 's.jpg', srcset: '', width: 600, height: 600 })).toBe('s.jpg');
  });

  it('builds the spec error messages', () => {
    const join = (m: { link: string; rest: string }) => m.link + m.rest;
    expect(join(imageErrorMessage(4, 3))).toBe('The image #3 could not be loaded.');
    expect(join(imageErrorMessage(1, 1))).toBe('The image could not be loaded.');
  });

  it.each([
    [50, 50, { x: 50, y: 50 }],
    [0, 0, { x: 0, y: 0 }],
    [100, 100, { x: 100, y: 100 }],
    [-20, 130, { x: 0, y: 100 }],
    [25, 75, { x: 25, y: 75 }],
  ])('zoom origin of (%d, %d) over a 100px square is %j', (x, y, want) => {
    expect(zoomOrigin(x, y, { left: 0, top: 0, width: 100, height: 100 })).toEqual(want);
  });
});

describe('hover zoom', () => {
  it('is off by default: no zoom element', () => {
    const { container } = render(<Gallery images={hoodie().images} productName="Hoodie" />);
    expect(container.querySelector('.product-gallery__zoom')).toBeNull();
    expect(container.querySelector('.has-zoom')).toBeNull();
  });

  it('renders the zoom element only when settings.zoom is true', () => {
    const off = renderToString(<Gallery images={hoodie().images} productName="Hoodie" settings={{ zoom: false, lightbox: true }} />);
    expect(off).not.toContain('product-gallery__zoom');
    const on = renderToString(<Gallery images={hoodie().images} productName="Hoodie" settings={{ zoom: true, lightbox: true }} />);
    expect(on).toContain('product-gallery__zoom');
  });

  it('follows the mouse with a magnified background and leaves on pointer leave', () => {
    const images = hoodie().images;
    const { container } = render(<Gallery images={images} productName="Hoodie" settings={{ zoom: true, lightbox: false }} />);
    const figure = container.querySelector<HTMLElement>('.product-gallery__main')!;
    const pane = container.querySelector<HTMLElement>('.product-gallery__zoom')!;
    expect(pane).toHaveAttribute('aria-hidden', 'true');
    figure.getBoundingClientRect = () => ({ left: 0, top: 0, width: 200, height: 200, right: 200, bottom: 200, x: 0, y: 0, toJSON() {} });
    fireEvent.pointerEnter(figure, { pointerType: 'mouse', clientX: 50, clientY: 150 });
    expect(pane).toHaveClass('is-active');
    expect(pane.style.backgroundImage).toContain(largestSource(images[0]));
    expect(pane.style.backgroundPosition).toBe('25% 75%');
    fireEvent.pointerMove(figure, { pointerType: 'mouse', clientX: 200, clientY: 0 });
    expect(pane.style.backgroundPosition).toBe('100% 0%');
    fireEvent.pointerLeave(figure, { pointerType: 'mouse' });
    expect(pane).not.toHaveClass('is-active');
  });

  it('ignores touch', () => {
    const { container } = render(<Gallery images={hoodie().images} productName="Hoodie" settings={{ zoom: true, lightbox: false }} />);
    fireEvent.pointerEnter(container.querySelector('.product-gallery__main')!, { pointerType: 'touch' });
    expect(container.querySelector('.product-gallery__zoom')).not.toHaveClass('is-active');
  });
});

describe('lightbox', () => {
  it('has no trigger in the server HTML (it needs the app), one after hydration', () => {
    const html = renderToString(<Gallery images={hoodie().images} productName="Hoodie" />);
    expect(html).not.toContain('View full-screen');
    render(<Gallery images={hoodie().images} productName="Hoodie" />);
    expect(screen.getByRole('button', { name: 'View full-screen' })).toHaveAttribute('aria-haspopup', 'dialog');
  });

  it('has no trigger and no image click when settings.lightbox is false', () => {
    const { container } = render(<Gallery images={hoodie().images} productName="Hoodie" settings={{ zoom: false, lightbox: false }} />);
    expect(screen.queryByRole('button', { name: 'View full-screen' })).toBeNull();
    expect(container.querySelector('.has-lightbox')).toBeNull();
  });

  it('opens at the current image from the trigger, counts, closes with Escape and gives focus back', async () => {
    const user = userEvent.setup();
    render(<Gallery images={hoodie().images} productName="Hoodie" />);
    await user.click(screen.getByRole('button', { name: 'Show image 2 of 4' }));
    const trigger = screen.getByRole('button', { name: 'View full-screen' });
    await user.click(trigger);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('2 / 4');
    const close = within(dialog).getByRole('button', { name: 'Close (Esc)' });
    expect(close).toHaveAttribute('title', 'Close (Esc)');
    expect(within(dialog).getByRole('button', { name: 'Zoom in' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Next' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(trigger).toHaveFocus();
  });

  it('opens from a click on the main image', async () => {
    const user = userEvent.setup();
    const { container } = render(<Gallery images={hoodie().images} productName="Hoodie" />);
    await user.click(container.querySelector('.product-gallery__main img')!);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('1 / 4');
  });

  it('shows the spec message for an image that fails to load', async () => {
    const user = userEvent.setup();
    render(<Gallery images={hoodie().images} productName="Hoodie" />);
    await user.click(screen.getByRole('button', { name: 'View full-screen' }));
    const dialog = await screen.findByRole('dialog');
    const current = dialog.querySelector<HTMLElement>('.yarl__slide_current img')!;
    act(() => {
      current.dispatchEvent(new Event('error'));
    });
    const msg = await within(dialog).findByText(/could not be loaded/, { selector: 'p' });
    expect(msg).toHaveTextContent('The image #1 could not be loaded.');
    expect(within(msg).getByRole('link')).toHaveAttribute('href', hoodie().images[0].src);
  });

  it('says "The image could not be loaded." for a single image', async () => {
    const user = userEvent.setup();
    const images = hoodie().images.slice(0, 1);
    render(<Gallery images={images} productName="Hoodie" />);
    await user.click(screen.getByRole('button', { name: 'View full-screen' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('button', { name: 'Next' })).toBeNull();
    act(() => {
      dialog.querySelector('.yarl__slide_current img')!.dispatchEvent(new Event('error'));
    });
    const msg = await within(dialog).findByText(/could not be loaded/, { selector: 'p' });
    expect(msg.textContent).toBe('The image could not be loaded.');
  });
});

describe('server render of the product page', () => {
  it('works through the server entry and is the same for every setting of browser-only state', () => {
    const data = productPage(13);
    const html = serverRender(data.url, JSON.stringify(data));
    expect(html).toContain('<h1 class="product_title entry-title">Hoodie</h1>');
    expect(html).toContain('class="product-cart-area"');
    expect(html).not.toContain('View full-screen');
    expect(html).not.toContain('sticky-add-to-cart');
    expect(html).not.toContain('yarl__');
    expect(html).not.toContain('Increase quantity');
    expect(renderToString(<App data={data} />)).toBe(html);
  });

  it('renders the zoom pane when the shop turns zoom on', () => {
    const data = productPage(13);
    data.settings = { ...data.settings, zoom: true };
    expect(serverRender(data.url, JSON.stringify(data))).toContain('product-gallery__zoom');
  });
});
