import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { AdminApp } from '../../AdminApp';
import { adminData, stubFetch, setupAdminTests, retype } from '../../test-utils';
import { attributes } from './fixtures';

setupAdminTests({ path: '/wp-admin/attributes/' });

describe('the attributes screen', () => {
  it('sets the swatch type and a value’s colour, and shows a refused colour', async () => {
    const calls = stubFetch((method, url, body) => {
      if (method === 'GET' && url === '/wp-json/wc/v3/products/attributes') return { body: attributes };
      if (method === 'PUT' && url === '/wp-json/wc/v3/products/attributes/1') return { body: { id: 1, type: 'label' } };
      if (method === 'PUT' && url === '/wp-json/wc/v3/products/attributes/1/terms/11') {
        const b = body as { color: string };
        if (b.color === 'red') return { status: 400, body: { code: 'rest_invalid_param', message: 'x', data: { status: 400, params: { color: 'The colour must be a hex colour such as #1f4e79.' } } } };
        return { body: { ...attributes[0].terms[0], color: b.color } };
      }
      return undefined;
    });
    const { container } = render(<AdminApp data={adminData} />);
    const type = await screen.findByLabelText('How Color shows on product pages', {}, { timeout: 5000 });
    expect(type).toHaveValue('color');
    await userEvent.selectOptions(type, 'label');
    await userEvent.click(screen.getByRole('button', { name: 'Save swatch type of Color' }));
    expect(await screen.findByText('Color now shows as label buttons.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ type: 'label' });

    const colour = screen.getByLabelText('Colour of Red');
    await retype(colour, 'red');
    await userEvent.click(screen.getByRole('button', { name: 'Save Red' }));
    expect(await screen.findByText('The colour must be a hex colour such as #1f4e79.')).toBeInTheDocument();
    expect(colour).toHaveAttribute('aria-invalid', 'true');
    await retype(colour, '#aa0000');
    await userEvent.click(screen.getByRole('button', { name: 'Save Red' }));
    await waitFor(() => expect(screen.getByText('Color “Red” saved.')).toBeInTheDocument());

    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }, 30_000); // a whole admin screen and axe: slow on a loaded machine
});

describe('the attributes screen: listing filters', () => {
  it('sets whether an attribute filters listings and any/all, sends both fields once, and shows a refusal', async () => {
    let saved = { filterable: true, filter_query_type: 'or' };
    let refuse = false;
    const calls = stubFetch((method, url, body) => {
      if (method === 'GET' && url === '/wp-json/wc/v3/products/attributes') return { body: [{ ...attributes[0], ...saved }] };
      if (method === 'PUT' && url === '/wp-json/wc/v3/products/attributes/1') {
        if (refuse) return { status: 400, body: { code: 'rest_invalid_param', message: 'x', data: { status: 400, params: { filter_query_type: 'filter_query_type must be or or and.' } } } };
        saved = body as typeof saved;
        return { body: { id: 1, ...saved } };
      }
      return undefined;
    });
    const { container } = render(<AdminApp data={adminData} />);
    const box = await screen.findByRole('checkbox', { name: /Offer Color as a filter/ }, { timeout: 5000 });
    expect(box).toBeChecked();
    const mode = screen.getByLabelText('When several Color values are chosen, show products with');
    expect(mode).toHaveValue('or');
    const save = screen.getByRole('button', { name: 'Save filter settings of Color' });
    expect(save).toBeDisabled(); // nothing changed yet
    await userEvent.selectOptions(mode, 'and');
    await userEvent.dblClick(save);
    expect(await screen.findByText('Listings filter by Color (all of the chosen values).')).toBeInTheDocument();
    const puts = calls.filter((c) => c.method === 'PUT');
    expect(puts).toHaveLength(1); // a double click saves once
    expect(puts[0].body).toEqual({ filterable: true, filter_query_type: 'and' });
    await waitFor(() => expect(screen.getByLabelText('When several Color values are chosen, show products with')).toHaveValue('and'));

    // Off: the query type cannot be chosen while the attribute does not filter.
    await userEvent.click(screen.getByRole('checkbox', { name: /Offer Color as a filter/ }));
    expect(screen.getByLabelText('When several Color values are chosen, show products with')).toBeDisabled();
    refuse = true;
    await userEvent.click(screen.getByRole('button', { name: 'Save filter settings of Color' }));
    expect(await screen.findByText('filter_query_type must be or or and.')).toBeInTheDocument();
    refuse = false;
    await userEvent.click(screen.getByRole('button', { name: 'Save filter settings of Color' }));
    expect(await screen.findByText('Listings no longer filter by Color.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ filterable: false, filter_query_type: 'and' });

    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }, 30_000);
});
