import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { AdminApp } from '../../AdminApp';
import { adminData, stubFetch, setupAdminTests, retype } from '../../test-utils';
import { categories } from './fixtures';

setupAdminTests({ scroll: true });

function route(method: string, url: string, body: unknown) {
  if (method === 'GET' && url.startsWith('/wp-json/wc/v3/products/categories')) return { body: categories };
  if (method === 'GET' && url.startsWith('/wp-json/wc/v3/products/tags')) return { body: [{ id: 20, name: 'Gifts', slug: 'gifts', count: 2 }] };
  if (method === 'POST' && url === '/wp-json/wc/v3/products/categories') {
    const b = body as { name: string };
    if (b.name === 'Clothing') return { status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): slug', data: { status: 400, params: { slug: 'Another category has the slug "clothing".' } } } };
    return { status: 201, body: { ...categories[0], id: 9, name: b.name, slug: 'kitchen' } };
  }
  if (method === 'PUT' && url === '/wp-json/wc/v3/products/categories/5') return { body: { ...categories[1], name: (body as { name: string }).name } };
  if (method === 'DELETE') return { body: { deleted: true } };
  if (method === 'POST' && url === '/wp-json/wc/v3/products/tags') return { status: 201, body: { id: 21, name: 'Sale', slug: 'sale', count: 0 } };
  return undefined;
}

describe('the categories screen', () => {
  it('adds a category, and marks a refused one', async () => {
    window.history.replaceState(null, '', '/wp-admin/categories/');
    const calls = stubFetch(route);
    render(<AdminApp data={adminData} />);
    expect(await screen.findByRole('link', { name: 'Hoodies' }, { timeout: 5000 })).toHaveAttribute('href', '/wp-admin/categories/5/');
    const name = screen.getByLabelText(/^Name/);
    await userEvent.type(name, 'Clothing{Enter}');
    const slug = screen.getByLabelText('Slug');
    await waitFor(() => expect(slug).toHaveFocus());
    expect(slug).toHaveAttribute('aria-invalid', 'true');
    await retype(name, 'Kitchen');
    await userEvent.selectOptions(screen.getByLabelText('Parent category'), '4');
    await userEvent.click(screen.getByRole('button', { name: 'Add category' }));
    expect(await screen.findByText('Category “Kitchen” added.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')[1].body).toEqual({ name: 'Kitchen', slug: '', parent: 4, description: '' });

    await userEvent.type(screen.getByLabelText('New tag'), 'Sale{Enter}');
    expect(await screen.findByText('Tag “Sale” added.')).toBeInTheDocument();
  });

  it('edits and deletes the category at its address, after a confirmation', async () => {
    window.history.replaceState(null, '', '/wp-admin/categories/5/');
    const calls = stubFetch(route);
    const { container } = render(<AdminApp data={adminData} />);
    const name = await screen.findByDisplayValue('Hoodies', {}, { timeout: 5000 });
    expect(screen.getByRole('heading', { name: 'Edit category “Hoodies”' })).toBeInTheDocument();
    expect(screen.getByLabelText('Parent category')).toHaveValue('4');
    await retype(name, 'Hoodies & Sweats{Enter}');
    expect(await screen.findByText('Category “Hoodies & Sweats” saved.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Delete category' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete the category “Hoodies”?' });
    const rules = { rules: { 'color-contrast': { enabled: false } } };
    expect((await axe.run(container, rules)).violations.map((v) => v.id)).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete category' }));
    await waitFor(() => expect(window.location.pathname).toBe('/wp-admin/categories/'));
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/wp-json/wc/v3/products/categories/5?force=true')).toBe(true);
    await screen.findByRole('heading', { name: 'Add a category' });
    expect((await axe.run(container, rules)).violations.map((v) => v.id)).toEqual([]);
  });
});
