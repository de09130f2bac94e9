import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { useState } from 'react';
import { setRestNonce } from '../../lib/rest';
import { adminData, stubFetch } from '../test-utils';
import type { Attachment } from './api';
import { MediaPicker } from './MediaPicker';
import { attachment, FakeXHR, stubXHR } from './test-xhr';

const lamp = attachment(5, 'Lamp', 'A brass lamp');
const sofa = attachment(4, 'Sofa', 'A grey sofa');
const chair = attachment(3, 'Chair', 'An oak chair');
const all = [lamp, sofa, chair];

beforeEach(() => {
  setRestNonce(adminData.nonce);
  stubXHR();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function api() {
  return stubFetch((method, url) => {
    if (method !== 'GET' || !url.startsWith('/wp-json/wp/v2/media?')) return undefined;
    const q = new URLSearchParams(url.split('?')[1]);
    const include = q.get('include');
    const items = include ? all.filter((a) => include.split(',').includes(String(a.id))) : all;
    return { body: items, headers: { 'X-WP-Total': String(items.length), 'X-WP-TotalPages': '1' } };
  });
}

/** A form holding the picker's value, as the product editor does. */
function Form({ initial, multiple, seen }: { initial: number[]; multiple?: boolean; seen: (ids: number[], items: Attachment[]) => void }) {
  const [ids, setIds] = useState(initial);
  return (
    <form aria-label="Product">
      <MediaPicker
        label="Product images"
        value={ids}
        multiple={multiple}
        onChange={(next, items) => {
          setIds(next);
          seen(next, items);
        }}
      />
    </form>
  );
}

async function axeClean(container: HTMLElement) {
  const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

describe('MediaPicker', () => {
  it('shows the chosen images, adds from the library in a dialog, and returns focus', async () => {
    const calls = api();
    const seen = vi.fn();
    const { container } = render(<Form initial={[5]} multiple seen={seen} />);
    const group = screen.getByRole('group', { name: 'Product images' });
    expect(await within(group).findByRole('img', { name: 'A brass lamp' })).toBeInTheDocument();
    expect(calls[0].url).toContain('include=5');
    await axeClean(container);

    const opener = screen.getByRole('button', { name: 'Choose from the library' });
    await userEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Choose product images' });
    expect(within(dialog).getByRole('searchbox', { name: 'Search images' })).toHaveFocus();
    const lampBox = await within(dialog).findByRole('checkbox', { name: 'Lamp' });
    expect(lampBox).toBeChecked();
    await axeClean(container);

    // Keyboard only: Tab to the chair, Space, then the button.
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Chair' }));
    expect(within(dialog).getByText('2 chosen.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use these images' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
    expect(seen).toHaveBeenLastCalledWith([5, 3], [lamp, chair]);
    expect(screen.getByRole('status')).toHaveTextContent('2 images chosen.');

    // Reorder and remove.
    await userEvent.click(screen.getByRole('button', { name: 'Earlier: Chair' }));
    expect(seen).toHaveBeenLastCalledWith([3, 5], [chair, lamp]);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Lamp' }));
    expect(seen).toHaveBeenLastCalledWith([3], [chair]);
    expect(opener).toHaveFocus();
  });

  it('with one image: a choice replaces it; Escape cancels', async () => {
    api();
    const seen = vi.fn();
    render(<Form initial={[]} seen={seen} />);
    expect(screen.getByText('No image chosen.')).toBeInTheDocument();
    const opener = screen.getByRole('button', { name: 'Choose from the library' });
    await userEvent.click(opener);
    const dialog = screen.getByRole('dialog');
    await userEvent.click(await within(dialog).findByRole('radio', { name: 'Sofa' }));
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Lamp' }));
    expect(within(dialog).getByRole('radio', { name: 'Sofa' })).not.toBeChecked();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
    expect(seen).not.toHaveBeenCalled();

    await userEvent.click(opener);
    await userEvent.click(await within(screen.getByRole('dialog')).findByRole('radio', { name: 'Sofa' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Use this image' }));
    expect(seen).toHaveBeenLastCalledWith([4], [sofa]);
    expect(screen.getByRole('button', { name: 'Replace from the library' })).toHaveFocus();
  });

  it('keeps Tab inside the dialog', async () => {
    api();
    render(<Form initial={[]} seen={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Choose from the library' }));
    const dialog = screen.getByRole('dialog');
    await within(dialog).findByRole('radio', { name: 'Sofa' });
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    cancel.focus();
    await userEvent.tab();
    expect(within(dialog).getByRole('searchbox')).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(cancel).toHaveFocus();
  });

  it('chooses what is uploaded in the dialog', async () => {
    api();
    const seen = vi.fn();
    render(<Form initial={[5]} multiple seen={seen} />);
    await userEvent.click(screen.getByRole('button', { name: 'Choose from the library' }));
    const dialog = screen.getByRole('dialog');
    await within(dialog).findByRole('checkbox', { name: 'Lamp' });
    await userEvent.click(within(dialog).getByText('Upload new images'));
    FakeXHR.answers.push({ status: 201, body: attachment(9, 'Stool', 'A stool') });
    await userEvent.upload(within(dialog).getByLabelText('Upload images'), new File([new Uint8Array([0xff, 0xd8, 0xff])], 'stool.jpg', { type: 'image/jpeg' }));
    await waitFor(() => expect(within(dialog).getByRole('checkbox', { name: 'Stool' })).toBeChecked());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use these images' }));
    expect(seen.mock.lastCall?.[0]).toEqual([5, 9]);
  });
});
