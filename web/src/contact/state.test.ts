import { formStatus, initialState, reducer, type Action, type FeedbackAnswer, type FormState } from './state';

const run = (actions: Action[], from: FormState = initialState) => actions.reduce(reducer, from);
const answer = (status: string, over: Partial<FeedbackAnswer> = {}): Action => ({
  type: 'answer',
  answer: { contact_form_id: 1, status, message: `message for ${status}`, posted_data_hash: '', into: '#wpcf7-f1-o1', invalid_fields: [], ...over },
});

describe('formStatus', () => {
  it("maps the server's statuses as CF7 does", () => {
    expect(formStatus('validation_failed')).toBe('invalid');
    expect(formStatus('acceptance_missing')).toBe('unaccepted');
    expect(formStatus('spam')).toBe('spam');
    expect(formStatus('aborted')).toBe('aborted');
    expect(formStatus('mail_sent')).toBe('sent');
    expect(formStatus('mail_failed')).toBe('failed');
    expect(formStatus('payment_required')).toBe('payment-required');
  });
  it('gives any other status a custom class', () => {
    expect(formStatus('error')).toBe('custom-error');
    expect(formStatus('Quota Exceeded!')).toBe('custom-quota-exceeded');
    expect(formStatus('***')).toBe('custom-status');
  });
});

describe('the contact form state machine', () => {
  it('validating on change returns to the status before, with the field tips updated', () => {
    let s = run([{ type: 'validating' }]);
    expect(s.status).toBe('validating');
    s = reducer(s, { type: 'validated', fields: ['your-email'], invalid: [{ field: 'your-email', message: 'Please enter an email address.' }] });
    expect(s.status).toBe('init');
    expect(s.tips).toEqual({ 'your-email': 'Please enter an email address.' });
    s = run([{ type: 'validating' }, { type: 'validated', fields: ['your-email'], invalid: [] }], s);
    expect(s.tips).toEqual({});
  });

  it('a change keeps an invalid form invalid, with its message', () => {
    const s = run([{ type: 'submitting' }, answer('validation_failed'), { type: 'validating' }, { type: 'validated', fields: ['x'], invalid: [] }]);
    expect(s.status).toBe('invalid');
    expect(s.message).toBe('message for validation_failed');
  });

  it('a submit clears the message and tips, and the answer sets status, message, tips and focus', () => {
    let s = run([{ type: 'refused', invalid: [{ field: 'your-name', message: 'Please fill out this field.' }], message: 'One or more fields have an error.' }]);
    expect(s.status).toBe('invalid');
    expect(s.focus).toBe(1);
    s = reducer(s, { type: 'submitting' });
    expect(s).toMatchObject({ status: 'submitting', message: '', tips: {} });
    s = reducer(
      s,
      answer('validation_failed', {
        invalid_fields: [{ field: 'your-file', message: 'You are not allowed to upload files of this type.', idref: null, error_id: 'wpcf7-f1-o1-ve-your-file' }],
      }),
    );
    expect(s).toMatchObject({ status: 'invalid', tips: { 'your-file': 'You are not allowed to upload files of this type.' }, focus: 2 });
  });

  it.each([
    ['acceptance_missing', 'unaccepted'],
    ['spam', 'spam'],
    ['aborted', 'aborted'],
    ['mail_failed', 'failed'],
    ['payment_required', 'payment-required'],
    ['members_only', 'custom-members-only'],
  ])('%s becomes %s with the server message', (server, status) => {
    const s = run([{ type: 'submitting' }, answer(server)]);
    expect(s.status).toBe(status);
    expect(s.message).toBe(`message for ${server}`);
    expect(s.focus).toBe(0);
  });

  it('validation does not interrupt a submit in flight', () => {
    const s = run([{ type: 'submitting' }, { type: 'validating' }, { type: 'validated', fields: ['a'], invalid: [{ field: 'a', message: 'm' }] }]);
    expect(s.status).toBe('submitting');
  });

  it('mail_sent → the reset after sending → refill → sent; a later change → init', () => {
    let s = run([{ type: 'submitting' }, answer('mail_sent')]);
    expect(s.status).toBe('sent');
    s = reducer(s, { type: 'resetting', afterSend: true });
    expect(s.status).toBe('resetting');
    s = reducer(s, { type: 'reset' });
    expect(s).toMatchObject({ status: 'sent', message: 'message for mail_sent' });
    s = run([{ type: 'validating' }, { type: 'validated', fields: ['your-name'], invalid: [] }], s);
    expect(s).toMatchObject({ status: 'init', message: '' });
  });

  it('another reset (not after sending) returns to init', () => {
    const s = run([{ type: 'submitting' }, answer('mail_sent'), { type: 'resetting', afterSend: true }, { type: 'reset' }, { type: 'resetting', afterSend: false }, { type: 'reset' }]);
    expect(s).toMatchObject({ status: 'init', message: '' });
  });

  it('a client failure is failed with its message', () => {
    const s = run([{ type: 'submitting' }, { type: 'error', message: 'You are probably offline.' }]);
    expect(s).toMatchObject({ status: 'failed', message: 'You are probably offline.' });
  });
});
