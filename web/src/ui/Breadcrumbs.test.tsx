import { render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { App } from '../App';
import { productPage } from '../test/fixtures';
import { Breadcrumbs } from './Breadcrumbs';

const hostile = '<img src=x onerror="alert(1)"> & "Q"';

describe('lists written as HTML', () => {
  it('breadcrumbs: links, the current page last, names as text', () => {
    const { container } = render(
      <Breadcrumbs items={[{ name: 'Home', url: '/' }, { name: 'Caf&#233; &amp; co', url: '/c/"x"&y/' }, { name: hostile, url: '' }]} />,
    );
    const nav = screen.getByRole('navigation', { name: 'Breadcrumb' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Home', '/'],
      ['Café & co', '/c/"x"&y/'],
    ]);
    const current = nav.querySelector('[aria-current="page"]')!;
    expect(current.textContent).toBe(hostile);
    expect(container.querySelector('img')).toBeNull();
    expect(nav.querySelectorAll('li')).toHaveLength(3);
  });

  it('a product page writes its categories, tags and attribute rows as text', () => {
    const base = productPage(16);
    const data = productPage(16, {
      product: {
        ...base.product,
        categories: [{ id: 1, name: hostile, slug: 'a', link: '/product-category/a/?x="1"&y' }],
        tags: [
          { id: 2, name: 'One', slug: 'one', link: '/product-tag/one/' },
          { id: 3, name: 'T&amp;wo', slug: 'two', link: '/product-tag/two/' },
        ],
      },
      additional: [{ label: 'Weight &amp; <b>size</b>', value: hostile }],
    });
    const html = renderToString(<App data={data} />);
    expect(html).not.toContain('<img src=x');
    const { container } = render(<App data={data} />);
    expect(container.querySelector('img[src="x"]')).toBeNull();
    const cats = container.querySelector('.posted_in')!;
    expect(cats.textContent).toBe(`Category: ${hostile}`);
    expect(cats.querySelector('a')).toHaveAttribute('href', '/product-category/a/?x="1"&y');
    expect(cats.querySelector('a')).toHaveAttribute('rel', 'tag');
    expect(container.querySelector('.tagged_as')!.textContent).toBe('Tags: One, T&wo');
    const row = container.querySelector('.woocommerce-product-attributes-item')!;
    expect(row.querySelector('th')).toHaveTextContent('Weight & <b>size</b>');
    expect(row.querySelector('th')).toHaveAttribute('scope', 'row');
    expect(row.querySelector('td')!.textContent).toBe(hostile);
  });
});
