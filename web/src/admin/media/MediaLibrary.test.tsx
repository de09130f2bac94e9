import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { setRestNonce } from '../../lib/rest';
import { AdminApp } from '../AdminApp';
import { adminData, stubFetch, type Call, retype } from '../test-utils';
import { UPLOAD_FAILED } from './api';
import { attachment, FakeXHR, stubXHR } from './test-xhr';

const lamp = attachment(5, 'Lamp', 'A brass lamp');
const sofa = attachment(4, 'Sofa');

beforeEach(() => {
  setRestNonce(adminData.nonce);
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  window.localStorage.clear();
  window.history.replaceState(null, '', '/wp-admin/media/');
  stubXHR();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function axeClean(container: HTMLElement) {
  const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** The library's API: a list, one image, edits and deletions, post-process answers from a queue. */
function library(postProcess: number[] = []) {
  let items = [lamp, sofa];
  const calls = stubFetch((method, url, body) => {
    if (method === 'GET' && url.startsWith('/wp-json/wp/v2/media?')) return { body: items, headers: { 'X-WP-Total': String(items.length), 'X-WP-TotalPages': '1' } };
    const one = url.match(/^\/wp-json\/wp\/v2\/media\/(\d+)(\/post-process|\?force=true)?$/);
    if (!one) return undefined;
    const id = Number(one[1]);
    const a = items.find((x) => x.id === id) ?? attachment(id, 'Chair');
    if (one[2] === '/post-process') {
      const status = postProcess.shift() ?? 500;
      return status === 200 ? { body: attachment(id, 'Chair') } : { status, body: { code: 'internal_error', message: 'The change could not be saved.', data: { status } } };
    }
    if (method === 'GET') return items.some((x) => x.id === id) ? { body: a } : { status: 404, body: { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } } };
    if (method === 'POST') {
      const b = body as { alt_text: string; title: string };
      if (b.alt_text.length > 500) return { status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): alt_text', data: { status: 400, params: { alt_text: 'The alt text is at most 500 characters.' } } } };
      return { body: { ...a, alt_text: b.alt_text, title: { raw: b.title, rendered: b.title } } };
    }
    if (method === 'DELETE') {
      items = items.filter((x) => x.id !== id);
      return { body: { deleted: true, previous: a } };
    }
    return undefined;
  });
  return calls;
}

function file(name = 'chair.jpg', type = 'image/jpeg') {
  return new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], name, { type });
}

const postProcessCalls = (calls: Call[]) => calls.filter((c) => c.url.endsWith('/post-process'));

describe('the media library', () => {
  it('shows the images as a grid or a list, and searches', async () => {
    const calls = library();
    const { container } = render(<AdminApp data={adminData} />);
    const grid = await screen.findByRole('button', { name: /Lamp/ });
    expect(grid.querySelector('img')).toHaveAttribute('src', lamp.media_details.sizes.medium.source_url);
    expect(screen.getByText('2 images.')).toBeInTheDocument();
    expect(within(screen.getByRole('button', { name: /Sofa/ })).getByText('No alt text')).toBeInTheDocument();
    await axeClean(container);

    await userEvent.click(screen.getByRole('button', { name: 'List' }));
    expect(screen.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('cell', { name: 'A brass lamp' })).toBeInTheDocument();
    expect(screen.getAllByRole('cell', { name: '1400×700' })).toHaveLength(2);
    expect(window.localStorage.getItem('vitrine-media-view')).toBe('list');
    await axeClean(container);

    await userEvent.type(screen.getByLabelText('Search images'), 'lamp{Enter}');
    await waitFor(() => expect(calls.some((c) => c.url.includes('search=lamp'))).toBe(true));
  });

  it('uploads chosen files with progress, and announces each result', async () => {
    const calls = library();
    render(<AdminApp data={adminData} />);
    await screen.findByRole('button', { name: /Lamp/ });
    FakeXHR.answers.push({ status: 201, body: attachment(9, 'Chair') });
    FakeXHR.answers.push({ status: 415, body: { code: 'rest_upload_invalid_type', message: 'Sorry, this file type is not permitted: upload a JPEG, PNG, GIF or WebP image.', data: { status: 415 } } });
    const input = screen.getByLabelText('Upload images');
    expect(input).toHaveAttribute('accept', 'image/jpeg,image/png,image/gif,image/webp');
    await userEvent.upload(input, [file('chair.jpg'), file('page.jpg')]);

    const uploads = screen.getByRole('list', { name: 'Uploads' });
    expect(uploads).toHaveAttribute('aria-live', 'polite');
    await waitFor(() => expect(within(uploads).getByText('Uploaded.')).toBeInTheDocument());
    expect(within(uploads).getByText(/file type is not permitted/)).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /Chair/ })).toBeInTheDocument();
    expect(screen.getByText('3 images.')).toBeInTheDocument();
    expect(FakeXHR.sent.map((s) => s.file?.name)).toEqual(['chair.jpg', 'page.jpg']);
    expect(FakeXHR.sent[0].headers['X-WP-Nonce']).toBe(adminData.nonce);
    expect(postProcessCalls(calls)).toHaveLength(0);

    // A file over the cap never leaves the browser.
    const big = new File([new Uint8Array(1)], 'huge.jpg', { type: 'image/jpeg' });
    Object.defineProperty(big, 'size', { value: 21 * 1024 * 1024 });
    await userEvent.upload(input, big);
    expect(await within(uploads).findByText(/This file is too large/)).toBeInTheDocument();
    expect(FakeXHR.sent).toHaveLength(2);
  });

  it('takes dropped files', async () => {
    library();
    render(<AdminApp data={adminData} />);
    await screen.findByRole('button', { name: /Lamp/ });
    FakeXHR.answers.push({ status: 201, body: attachment(9, 'Chair') });
    const zone = screen.getByTestId('media-drop');
    fireEvent.dragOver(zone, { dataTransfer: { files: [] } });
    expect(zone).toHaveClass('media-drop--over');
    fireEvent.drop(zone, { dataTransfer: { files: [file('dropped.jpg')] } });
    expect(await screen.findByText('Uploaded.')).toBeInTheDocument();
    expect(FakeXHR.sent[0].file?.name).toBe('dropped.jpg');
    expect(zone).not.toHaveClass('media-drop--over');
  });

  it('asks for the sizes again after a server error, up to five times, then deletes the upload', async () => {
    const calls = library([500, 500, 500, 500, 500]);
    render(<AdminApp data={adminData} />);
    await screen.findByRole('button', { name: /Lamp/ });
    FakeXHR.answers.push({ status: 500, body: { code: 'rest_upload_image_subsizes', message: 'The image was stored but its sizes could not be made.', data: { status: 500 } }, headers: { 'X-WP-Upload-Attachment-ID': '77' } });
    await userEvent.upload(screen.getByLabelText('Upload images'), file('huge-photo.jpg'));
    expect(await screen.findByText(UPLOAD_FAILED)).toBeInTheDocument();
    const pp = postProcessCalls(calls);
    expect(pp).toHaveLength(5);
    expect(pp.every((c) => c.method === 'POST' && c.url === '/wp-json/wp/v2/media/77/post-process' && (c.body as { action: string }).action === 'create-image-subsizes')).toBe(true);
    const del = calls.filter((c) => c.method === 'DELETE');
    expect(del.map((c) => c.url)).toEqual(['/wp-json/wp/v2/media/77?force=true']);
    expect(calls.indexOf(del[0])).toBeGreaterThan(calls.indexOf(pp[4]));
  });

  it('stops asking once the sizes are made', async () => {
    const calls = library([500, 200]);
    render(<AdminApp data={adminData} />);
    await screen.findByRole('button', { name: /Lamp/ });
    FakeXHR.answers.push({ status: 500, body: { code: 'rest_upload_image_subsizes', message: 'x', data: { status: 500 } }, headers: { 'X-WP-Upload-Attachment-ID': '77' } });
    await userEvent.upload(screen.getByLabelText('Upload images'), file('chair.jpg'));
    expect(await screen.findByText('Uploaded.')).toBeInTheDocument();
    expect(postProcessCalls(calls)).toHaveLength(2);
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it('opens an image, edits its alt text, and deletes it after a confirmation, moving focus each time', async () => {
    const calls = library();
    const { container } = render(<AdminApp data={adminData} />);
    await userEvent.click(await screen.findByRole('button', { name: /Lamp/ }));
    const heading = await screen.findByRole('heading', { name: 'Image: Lamp' });
    await waitFor(() => expect(heading).toHaveFocus());
    const sizes = screen.getByRole('list', { name: 'Sizes' });
    expect(within(sizes).getByRole('link', { name: /woocommerce_single/ })).toHaveAttribute('href', lamp.media_details.sizes.woocommerce_single.source_url);
    expect(sizes).toHaveTextContent('600×300');
    expect(screen.getByRole('img', { name: 'A brass lamp' })).toHaveAttribute('srcset', expect.stringContaining('-1200x600.jpg 1200w'));
    await axeClean(container);

    // A refused edit names the field.
    const alt = screen.getByLabelText('Alt text');
    fireEvent.change(alt, { target: { value: 'x'.repeat(501) } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The alt text is at most 500 characters.')).toBeInTheDocument();
    expect(alt).toHaveAttribute('aria-invalid', 'true');

    await retype(alt, 'A lit brass lamp');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved the details of “Lamp”.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && (c.body as { alt_text: string }).alt_text === 'A lit brass lamp')).toBeTruthy();

    // Delete: the dialog starts on Cancel; Escape cancels back to the button.
    const del = screen.getByRole('button', { name: 'Delete permanently' });
    await userEvent.click(del);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete “Lamp”?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await axeClean(container);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(del).toHaveFocus();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await userEvent.click(del);
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted “Lamp”.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/wp-json/wp/v2/media/5?force=true']);
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Library' })).toHaveFocus());
    expect(screen.queryByRole('button', { name: /Lamp/ })).not.toBeInTheDocument();
  });

  it('closes the details with Escape, back to the image; an address opens one at once', async () => {
    library();
    window.history.replaceState(null, '', '/wp-admin/media/4/');
    render(<AdminApp data={adminData} />);
    expect(await screen.findByRole('heading', { name: 'Image: Sofa' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Close/ }));
    await waitFor(() => expect(screen.getByRole('button', { name: /Sofa/ })).toHaveFocus());
    await userEvent.click(await screen.findByRole('button', { name: /Sofa/ }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Image: Sofa' })).toHaveFocus());
    act(() => {
      fireEvent.keyDown(screen.getByRole('heading', { name: 'Image: Sofa' }), { key: 'Escape' });
    });
    await waitFor(() => expect(screen.getByRole('button', { name: /Sofa/ })).toHaveFocus());
  });
});
