import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { vi, type Mock } from 'vitest';
import { App } from '../App';
import type { ContactField, ContactFormData, ContactPage } from '../types';
import { nav, settings, site } from '../test/fixtures';
import defaultSchema from '../../../internal/contactform/testdata/default-form-schema.json';
import { ACCEPT_HINT } from './ContactForm';
import { INVALID_JSON, OFFLINE, UNKNOWN_ERROR } from './api';
import type { SWVSchema } from './swv';

vi.mock('../account/login/botcheck', () => ({ obtainProof: vi.fn() }));
import { obtainProof } from '../account/login/botcheck';

const proof = obtainProof as unknown as Mock;
const UNIT = 'wpcf7-f1-o1';

/** internal/contactform DefaultForm(), as the page data carries it. */
const defaultFields: ContactField[] = [
  { name: 'your-name', label: 'Your name', kind: 'text', required: true, maxlength: 400 },
  { name: 'your-email', label: 'Your email', kind: 'email', required: true, maxlength: 400 },
  { name: 'your-subject', label: 'Subject', kind: 'text', maxlength: 400 },
  { name: 'your-message', label: 'Your message', kind: 'textarea', required: true, maxlength: 2000 },
  { name: 'your-file', label: 'Attachment (PDF, JPEG or PNG, up to 2 MiB)', kind: 'file', accept: ['.pdf', '.jpg', '.jpeg', '.png'], max_size: 2097152 },
  { name: 'your-consent', label: "I agree to the shop's privacy policy and terms.", kind: 'acceptance', required: true },
];

function formData(over: Partial<ContactFormData> = {}): ContactFormData {
  return {
    id: 1,
    unit_tag: UNIT,
    action: `/contact/#${UNIT}`,
    locale: 'en_US',
    hidden: [
      { name: '_wpcf7', value: '1' },
      { name: '_wpcf7_version', value: '6.2' },
      { name: '_wpcf7_locale', value: 'en_US' },
      { name: '_wpcf7_unit_tag', value: UNIT },
      { name: '_wpcf7_container_post', value: '0' },
      { name: '_wpcf7_posted_data_hash', value: '' },
      { name: '_wpcf7_recaptcha_response', value: '' },
    ],
    fields: defaultFields,
    messages: {
      mail_sent_ok: 'Thank you for your message. It has been sent.',
      validation_error: 'One or more fields have an error. Please check and try again.',
    },
    schema: defaultSchema as SWVSchema,
    feedback_url: '/wp-json/contact-form-7/v1/contact-forms/1/feedback',
    refill_url: '/wp-json/contact-form-7/v1/contact-forms/1/refill',
    botcheck_url: '/wp-json/vitrine/v1/botcheck/contact',
    ...over,
  };
}

function page(form = formData()): ContactPage {
  return { page: 'contact', site, url: '/contact/', nav, settings, title: 'Contact', breadcrumbs: [{ name: 'Home', url: '/' }, { name: 'Contact', url: '/contact/' }], form };
}

type Answer = { status?: number; body?: unknown; fail?: boolean };
/** A fetch mock answering queued answers per URL kind; records the POSTed bodies and the GETs. */
function mockFetch(...answers: Answer[]) {
  const posted: FormData[] = [];
  const gets: string[] = [];
  const fn = vi.fn(async (url: string, init?: RequestInit) => {
    if (!init || !init.method || init.method === 'GET') {
      gets.push(url);
      return new Response('{}', { status: 200 });
    }
    posted.push(init.body as FormData);
    const a = answers.shift();
    if (!a || a.fail) throw new TypeError('Failed to fetch');
    return new Response(typeof a.body === 'string' ? a.body : JSON.stringify(a.body), { status: a.status ?? 200 });
  });
  vi.stubGlobal('fetch', fn);
  return { fn, posted, gets };
}

const form = () => document.querySelector('form.wpcf7-form') as HTMLFormElement;
const output = () => form().querySelector('.wpcf7-response-output') as HTMLElement;
const submit = () => screen.getByRole('button', { name: 'Submit' });

async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(/Your name/), 'Ada Lovelace');
  await user.type(screen.getByLabelText(/Your email/), 'ada@example.com');
  await user.type(screen.getByLabelText(/Your message/), 'Hello there');
  await user.click(screen.getByLabelText(/I agree/));
}

beforeEach(() => {
  proof.mockReset();
  proof.mockResolvedValue('proof-payload');
});
afterEach(() => vi.unstubAllGlobals());

describe('ContactPage', () => {
  it("renders CF7's markup: unit tag, form attributes, hidden fields in order, labelled fields, a live response area", () => {
    render(<App data={page()} />);
    const wrap = document.getElementById(UNIT)!;
    expect(wrap).toHaveClass('wpcf7');
    const f = form();
    expect(wrap).toContainElement(f);
    expect(f.getAttribute('action')).toBe('/contact/#wpcf7-f1-o1');
    expect(f.getAttribute('method')).toBe('post');
    expect(f.getAttribute('enctype')).toBe('multipart/form-data');
    expect(f.hasAttribute('novalidate')).toBe(true);
    expect(f.dataset.status).toBe('init');
    expect(f).toHaveClass('wpcf7-form', 'init');
    const hidden = Array.from(f.querySelectorAll<HTMLInputElement>('fieldset.hidden-fields-container input[type=hidden]')).map((i) => [i.name, i.value]);
    expect(hidden).toEqual([
      ['_wpcf7', '1'],
      ['_wpcf7_version', '6.2'],
      ['_wpcf7_locale', 'en_US'],
      ['_wpcf7_unit_tag', UNIT],
      ['_wpcf7_container_post', '0'],
      ['_wpcf7_posted_data_hash', ''],
      ['_wpcf7_recaptcha_response', ''],
    ]);
    for (const name of ['your-name', 'your-email', 'your-subject', 'your-message', 'your-file']) {
      const wrapEl = f.querySelector(`span.wpcf7-form-control-wrap[data-name="${name}"]`)!;
      const control = wrapEl.querySelector('input, textarea')!;
      expect(control.getAttribute('name')).toBe(name);
      expect(control.getAttribute('aria-invalid')).toBe('false');
    }
    expect(screen.getByLabelText(/Your name/)).toHaveAttribute('aria-required', 'true');
    expect(screen.getByLabelText(/Subject/)).not.toHaveAttribute('aria-required');
    expect(screen.getByLabelText(/Your email/)).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText(/Your message/).tagName).toBe('TEXTAREA');
    expect(screen.getByLabelText(/Attachment/)).toHaveAttribute('accept', '.pdf,.jpg,.jpeg,.png');
    // CF7's screen-reader response is the wrapper's first child (its script
    // writes there and throws without it), and the one live region; the
    // visible output is hidden from screen readers, as CF7's.
    const sr = wrap.firstElementChild as HTMLElement;
    expect(sr).toHaveClass('screen-reader-response');
    const srStatus = sr.querySelector(':scope > p')!;
    expect(srStatus).toHaveAttribute('role', 'status');
    expect(srStatus).toHaveAttribute('aria-live', 'polite');
    expect(srStatus).toHaveAttribute('aria-atomic', 'true');
    expect(sr.querySelector(':scope > ul')).not.toBeNull();
    expect(wrap.querySelectorAll('[aria-live]')).toHaveLength(1);
    const out = f.querySelector('.wpcf7-response-output')!;
    expect(out).toHaveAttribute('aria-hidden', 'true');
    expect(out).not.toHaveAttribute('aria-live');
    // No spinner in the markup: CF7's script inserts one after .has-spinner.
    expect(wrap.querySelector('.wpcf7-spinner')).toBeNull();
    expect(wrap.querySelectorAll('.has-spinner')).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1, name: 'Contact' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toHaveTextContent('Contact');
  });

  it('the server render hydrates without a mismatch and switches no-js to js', async () => {
    const html = renderToString(<App data={page()} />);
    expect(html).toContain('class="wpcf7 no-js"');
    expect(html).toContain('<noscript>');
    const host = document.createElement('div');
    host.innerHTML = html;
    document.body.appendChild(host);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { hydrateRoot } = await import('react-dom/client');
    await act(async () => {
      hydrateRoot(host, <App data={page()} />);
    });
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    expect(host.querySelector(`#${UNIT}`)).toHaveClass('js');
    host.remove();
  });

  it('shows the answer to a form posted without scripts: tips, values, the message in both regions, focus on the first error', () => {
    render(
      <App
        data={page(
          formData({
            answer: {
              status: 'validation_failed',
              message: 'One or more fields have an error. Please check and try again.',
              invalid_fields: [{ field: 'your-name', message: 'Please fill out this field.', idref: null, error_id: `${UNIT}-ve-your-name` }],
            },
            values: { 'your-email': ['ada@example.com'], 'your-message': ['Hello'], 'your-consent': ['1'] },
          }),
        )}
      />,
    );
    expect(form().dataset.status).toBe('invalid');
    expect(output()).toHaveTextContent('One or more fields have an error.');
    const sr = document.querySelector('.screen-reader-response')!;
    expect(sr.querySelector('p')).toHaveTextContent('One or more fields have an error.');
    expect(sr.querySelector('ul')).toHaveTextContent('Please fill out this field.');
    expect(screen.getByLabelText(/Your email/)).toHaveValue('ada@example.com');
    expect(screen.getByLabelText(/Your message/)).toHaveValue('Hello');
    expect(screen.getByLabelText(/I agree/)).toBeChecked();
    expect(submit()).toBeEnabled();
    expect(screen.getByLabelText(/Your name/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/Your name/)).toHaveFocus();
  });

  it('shows the thanks after a form posted without scripts was sent, on an empty form', () => {
    render(<App data={page(formData({ answer: { status: 'mail_sent', message: 'Thank you for your message. It has been sent.', posted_data_hash: 'abc' } }))} />);
    expect(form().dataset.status).toBe('sent');
    expect(output()).toHaveTextContent('Thank you for your message.');
    expect(screen.getByLabelText(/Your email/)).toHaveValue('');
    expect((form().querySelector('input[name=_wpcf7_posted_data_hash]') as HTMLInputElement).value).toBe('abc');
  });

  it("stands aside when another script (CF7's own) took the submit first", async () => {
    const user = userEvent.setup();
    const { posted } = mockFetch();
    render(<App data={page()} />);
    await fillValid(user);
    const taken = (e: Event) => e.preventDefault();
    form().addEventListener('submit', taken);
    await user.click(submit());
    form().removeEventListener('submit', taken);
    expect(proof).not.toHaveBeenCalled();
    expect(posted).toHaveLength(0);
    expect(form().dataset.status).toBe('init');
  });

  it('keeps Submit disabled until the required acceptance box is ticked', async () => {
    const user = userEvent.setup();
    render(<App data={page()} />);
    expect(submit()).toBeDisabled();
    expect(submit()).toHaveAccessibleDescription(ACCEPT_HINT);
    await user.click(screen.getByLabelText(/I agree/));
    expect(submit()).toBeEnabled();
    expect(screen.queryByText(ACCEPT_HINT)).toBeNull();
    await user.click(screen.getByLabelText(/I agree/));
    expect(submit()).toBeDisabled();
  });

  it('counts the message down in UTF-16 units and flags too long', async () => {
    const user = userEvent.setup();
    const fields = defaultFields.map((f) => (f.name === 'your-message' ? { ...f, maxlength: 5, minlength: 2 } : f));
    render(<App data={page(formData({ fields }))} />);
    const msg = screen.getByLabelText(/Your message/);
    const counter = () => document.querySelector('.wpcf7-character-count[data-target-name="your-message"]')!;
    expect(counter()).toHaveTextContent('5');
    expect(counter()).toHaveClass('down', 'too-short');
    expect(msg).toHaveAccessibleDescription('5 characters left');
    await user.type(msg, 'ab😀');
    expect(counter()).toHaveTextContent('1');
    expect(counter()).not.toHaveClass('too-short');
    expect(msg).toHaveAccessibleDescription('1 character left');
    // Past the limit (a paste the browser let through): flagged.
    fireEvent.input(msg, { target: { value: 'abcdefg' } });
    expect(counter()).toHaveTextContent('-2');
    expect(counter()).toHaveClass('too-long');
  });

  it('validates a field when it changes: tip with the error id, aria-invalid, aria-describedby', async () => {
    const user = userEvent.setup();
    render(<App data={page()} />);
    const email = screen.getByLabelText(/Your email/);
    await user.type(email, 'not-an-email');
    await user.tab();
    const tip = await screen.findByText('Please enter an email address.', { selector: '.wpcf7-not-valid-tip' });
    expect(tip).toHaveAttribute('id', `${UNIT}-ve-your-email`);
    expect(tip).toHaveClass('wpcf7-not-valid-tip');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAttribute('aria-describedby', `${UNIT}-ve-your-email`);
    expect(email).toHaveClass('wpcf7-not-valid');
    // Other fields are not validated by this change.
    expect(screen.getByLabelText(/Your name/)).toHaveAttribute('aria-invalid', 'false');
    expect(form().dataset.status).toBe('init');
    await user.clear(email);
    await user.type(email, 'ada@example.com');
    await user.tab();
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'false'));
    expect(screen.queryByText('Please enter an email address.')).toBeNull();
  });

  it('refuses a submit with errors without sending, and focuses the first invalid field', async () => {
    const user = userEvent.setup();
    const { fn } = mockFetch();
    render(<App data={page()} />);
    await user.type(screen.getByLabelText(/Your email/), 'ada@example.com');
    await user.click(screen.getByLabelText(/I agree/));
    await user.click(submit());
    expect(form().dataset.status).toBe('invalid');
    expect(form()).toHaveClass('invalid');
    expect(output()).toHaveTextContent('One or more fields have an error. Please check and try again.');
    expect(screen.getByLabelText(/Your name/)).toHaveFocus();
    expect(document.getElementById(`${UNIT}-ve-your-name`)).toHaveTextContent('Please fill out this field.');
    expect(document.getElementById(`${UNIT}-ve-your-message`)).toHaveTextContent('Please fill out this field.');
    expect(fn).not.toHaveBeenCalled();
    expect(proof).not.toHaveBeenCalled();
  });

  it('sends multipart with a fresh proof, writes the hash back, resets, calls refill and stays sent', async () => {
    const user = userEvent.setup();
    const { posted, gets } = mockFetch(
      { body: { contact_form_id: 1, status: 'mail_sent', message: 'Thank you for your message. It has been sent.', posted_data_hash: 'abc123', into: `#${UNIT}`, invalid_fields: [] } },
      { body: { contact_form_id: 1, status: 'mail_sent', message: 'Sent again.', posted_data_hash: 'def456', into: `#${UNIT}`, invalid_fields: [] } },
    );
    proof.mockResolvedValueOnce('proof-1').mockResolvedValueOnce('proof-2');
    render(<App data={page()} />);
    await fillValid(user);
    await user.click(submit());
    await waitFor(() => expect(form().dataset.status).toBe('sent'));
    expect(proof).toHaveBeenCalledWith('/wp-json/vitrine/v1/botcheck/contact', expect.any(HTMLElement));
    expect(posted).toHaveLength(1);
    const sent = posted[0];
    expect(sent.get('_wpcf7')).toBe('1');
    expect(sent.get('_wpcf7_unit_tag')).toBe(UNIT);
    expect(sent.get('_wpcf7_recaptcha_response')).toBe('proof-1');
    expect(sent.get('your-name')).toBe('Ada Lovelace');
    expect(sent.get('your-consent')).toBe('1');
    expect(output()).toHaveTextContent('Thank you for your message. It has been sent.');
    expect(gets).toEqual(['/wp-json/contact-form-7/v1/contact-forms/1/refill']);
    // The form was reset: fields empty, the box unticked, Submit held again.
    expect(screen.getByLabelText(/Your name/)).toHaveValue('');
    expect(screen.getByLabelText(/I agree/)).not.toBeChecked();
    expect(submit()).toBeDisabled();
    await waitFor(() => expect(form().querySelector<HTMLInputElement>('input[name=_wpcf7_posted_data_hash]')!.value).toBe('abc123'));
    expect(form().querySelector<HTMLInputElement>('input[name=_wpcf7_recaptcha_response]')!.value).toBe('');

    // A change after the sent message: back to init, the message gone.
    await user.type(screen.getByLabelText(/Your name/), 'Ada');
    await user.tab();
    await waitFor(() => expect(form().dataset.status).toBe('init'));
    expect(output()).toHaveTextContent('');

    // The next submit gets its own proof and sends the hash back. (user-event
    // keeps its own idea of a field's text, which the form's reset does not
    // update in jsdom: the fields are cleared through it first.)
    await user.clear(screen.getByLabelText(/Your email/));
    await user.type(screen.getByLabelText(/Your email/), 'ada@example.com');
    await user.clear(screen.getByLabelText(/Your message/));
    await user.type(screen.getByLabelText(/Your message/), 'Again');
    await user.click(screen.getByLabelText(/I agree/));
    await user.click(submit());
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1].get('_wpcf7_recaptcha_response')).toBe('proof-2');
    expect(posted[1].get('_wpcf7_posted_data_hash')).toBe('abc123');
  });

  it("shows the server's validation_failed tips and focuses the first invalid control", async () => {
    const user = userEvent.setup();
    mockFetch({
      body: {
        contact_form_id: 1,
        status: 'validation_failed',
        message: 'One or more fields have an error. Please check and try again.',
        posted_data_hash: '',
        into: `#${UNIT}`,
        invalid_fields: [{ field: 'your-file', message: 'You are not allowed to upload files of this type.', idref: null, error_id: `${UNIT}-ve-your-file` }],
      },
    });
    render(<App data={page()} />);
    await fillValid(user);
    await user.click(submit());
    await waitFor(() => expect(form().dataset.status).toBe('invalid'));
    const file = screen.getByLabelText(/Attachment/);
    expect(file).toHaveFocus();
    expect(file).toHaveAttribute('aria-invalid', 'true');
    expect(file).toHaveAccessibleDescription('You are not allowed to upload files of this type.');
  });

  it.each([
    ['offline', { fail: true }, OFFLINE, 'failed'],
    ['a body that is not JSON', { body: '<html>oops</html>' }, INVALID_JSON, 'failed'],
    ['JSON without a status', { body: { hello: 1 } }, UNKNOWN_ERROR, 'failed'],
    ['an error status without JSON', { status: 502, body: 'Bad gateway' }, UNKNOWN_ERROR, 'failed'],
    ['an error status with a REST error', { status: 415, body: { code: 'wpcf7_unsupported_media_type', message: 'The request is not multipart.' } }, 'The request is not multipart.', 'failed'],
    [
      'no room for files (507, feedback and REST error in one)',
      { status: 507, body: { code: 'wpcf7_insufficient_storage', data: { status: 507 }, contact_form_id: 1, status: 'aborted', message: 'The shop cannot take more files at the moment.', posted_data_hash: '', into: '#wpcf7-f1-o1' } },
      'The shop cannot take more files at the moment.',
      'failed',
    ],
    ['spam', { body: { contact_form_id: 1, status: 'spam', message: 'There was an error trying to send your message.' } }, 'There was an error trying to send your message.', 'spam'],
    ['acceptance_missing', { body: { contact_form_id: 1, status: 'acceptance_missing', message: 'You must accept the terms.' } }, 'You must accept the terms.', 'unaccepted'],
    ['a status of its own', { body: { contact_form_id: 1, status: 'members_only', message: 'Members only.' } }, 'Members only.', 'custom-members-only'],
  ] as const)('%s: shows the message, status follows', async (_name, a, text, status) => {
    const user = userEvent.setup();
    mockFetch(a as Answer);
    render(<App data={page()} />);
    await fillValid(user);
    await user.click(submit());
    await waitFor(() => expect(form().dataset.status).toBe(status));
    expect(form()).toHaveClass(status);
    expect(output()).toHaveTextContent(text);
    expect(submit()).toBeEnabled();
  });

  it('sends without a proof when the bot-check fails (the server decides)', async () => {
    const user = userEvent.setup();
    proof.mockReset();
    proof.mockRejectedValue(new Error('bot-check error'));
    const { posted } = mockFetch({ body: { contact_form_id: 1, status: 'spam', message: 'Spam.' } });
    render(<App data={page()} />);
    await fillValid(user);
    await user.click(submit());
    await waitFor(() => expect(form().dataset.status).toBe('spam'));
    expect(posted[0].get('_wpcf7_recaptcha_response')).toBe('');
  });

  it('disables Submit and marks the form busy while submitting', async () => {
    const user = userEvent.setup();
    let release!: (r: Response) => void;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((r) => (release = r))),
    );
    render(<App data={page()} />);
    await fillValid(user);
    await user.click(submit());
    await waitFor(() => expect(form().dataset.status).toBe('submitting'));
    expect(submit()).toBeDisabled();
    expect(form()).toHaveAttribute('aria-busy', 'true');
    await act(async () => release(new Response(JSON.stringify({ contact_form_id: 1, status: 'mail_failed', message: 'Failed.' }))));
    await waitFor(() => expect(form().dataset.status).toBe('failed'));
    expect(form()).not.toHaveAttribute('aria-busy');
  });

  it('exclusive checkboxes allow one box; a group is labelled and validated', async () => {
    const user = userEvent.setup();
    const fields: ContactField[] = [
      { name: 'topic', label: 'Topic', kind: 'checkbox', options: ['Order', 'Product', 'Other'], exclusive: true, required: true },
      { name: 'sizes', label: 'Sizes', kind: 'checkbox', options: ['S', 'M', 'L'] },
    ];
    const schema: SWVSchema = {
      version: 'Contact Form 7 SWV Schema 2024-10',
      locale: 'en_US',
      rules: [
        { rule: 'required', field: 'topic', error: 'Please fill out this field.' },
        { rule: 'enum', field: 'topic', accept: ['Order', 'Product', 'Other'], error: 'Undefined value was submitted through this field.' },
        { rule: 'maxitems', field: 'topic', threshold: '1', error: 'Too many items are selected.' },
      ],
    };
    render(<App data={page(formData({ fields, schema }))} />);
    const group = screen.getByRole('group', { name: 'Topic' });
    expect(group).toHaveClass('wpcf7-exclusive-checkbox');
    await user.click(screen.getByLabelText('Order'));
    await user.click(screen.getByLabelText('Product'));
    expect(screen.getByLabelText('Order')).not.toBeChecked();
    expect(screen.getByLabelText('Product')).toBeChecked();
    // A plain group keeps several.
    await user.click(screen.getByLabelText('S'));
    await user.click(screen.getByLabelText('M'));
    expect(screen.getByLabelText('S')).toBeChecked();
    expect(screen.getByLabelText('M')).toBeChecked();
    // Unticking the exclusive group's box leaves it empty: required fails, the first box gets the focus on submit.
    await user.click(screen.getByLabelText('Product'));
    await waitFor(() => expect(group).toHaveAttribute('aria-invalid', 'true'));
    expect(group).toHaveAccessibleDescription('Please fill out this field.');
    expect(screen.getByLabelText('Order')).toHaveAttribute('name', 'topic[]');
  });
});
