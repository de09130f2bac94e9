/**
 * The contact form's state machine (spec section 4, protocol-notes 10.1
 * client mapping), as a reducer so it is tested without a browser. The
 * status is what the form's data-status attribute and class show.
 *
 *   init ──change──▶ validating ──▶ (back to the status before)
 *   any ──submit──▶ submitting ──answer──▶ invalid | unaccepted | spam |
 *                   aborted | sent | failed | payment-required | custom-…
 *   sent ──form reset──▶ resetting ──refill──▶ sent
 *   other ──form reset──▶ resetting ──refill──▶ init
 *   sent ──change──▶ validating ──▶ init (a new message begins)
 *
 * A submit the browser's own validation refuses never leaves: it becomes
 * invalid with the form's validation message, like a validation_failed
 * answer. Client failures (offline, a body that is not JSON, anything
 * else) become failed with the message of the failure.
 */

import type { Invalid } from './swv';

/** The statuses CF7 gives the server's answers. */
const SERVER_STATUSES: Record<string, string> = {
  init: 'init',
  validation_failed: 'invalid',
  acceptance_missing: 'unaccepted',
  spam: 'spam',
  aborted: 'aborted',
  mail_sent: 'sent',
  mail_failed: 'failed',
  submitting: 'submitting',
  resetting: 'resetting',
  validating: 'validating',
  payment_required: 'payment-required',
};
const KNOWN = new Set(Object.values(SERVER_STATUSES));

/** The form status for a server status: CF7's mapping, and "custom-<name>" for others. */
export function formStatus(server: string): string {
  const s = SERVER_STATUSES[server] ?? server;
  if (KNOWN.has(s)) return s;
  const slug = s.replace(/[^0-9a-z]+/gi, ' ').trim().replace(/\s+/g, '-').toLowerCase();
  return `custom-${slug || 'status'}`;
}

/** One invalid field of a feedback answer (protocol-notes 10.1). */
export interface InvalidField {
  field: string;
  message: string;
  idref: string | null;
  error_id: string;
}

/** The feedback answer (protocol-notes 10.1). */
export interface FeedbackAnswer {
  contact_form_id: number;
  status: string;
  message: string;
  posted_data_hash?: string;
  into?: string;
  invalid_fields?: InvalidField[];
  captcha?: Record<string, string>;
  quiz?: Record<string, [string, string]>;
  demo_mode?: boolean;
}

export interface FormState {
  status: string;
  /** The status validating and resetting return to. */
  prev: string;
  /** The response output's text ("" = hidden). */
  message: string;
  /** Error tips by reported field name. */
  tips: Record<string, string>;
  /** Grows when the focus must move to the first invalid control. */
  focus: number;
}

export const initialState: FormState = { status: 'init', prev: 'init', message: '', tips: {}, focus: 0 };

export type Action =
  | { type: 'validating' }
  | { type: 'validated'; fields: string[]; invalid: Invalid[] }
  | { type: 'refused'; invalid: Invalid[]; message: string }
  | { type: 'submitting' }
  | { type: 'answer'; answer: FeedbackAnswer }
  | { type: 'error'; message: string }
  | { type: 'resetting'; afterSend: boolean }
  | { type: 'reset' };

function tipsOf(invalid: { field: string; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of invalid) if (!(i.field in out)) out[i.field] = i.message;
  return out;
}

const BUSY = new Set(['submitting', 'resetting']);

export function reducer(state: FormState, action: Action): FormState {
  switch (action.type) {
    case 'validating':
      if (BUSY.has(state.status) || state.status === 'validating') return state;
      return { ...state, prev: state.status, status: 'validating' };
    case 'validated': {
      const tips = { ...state.tips };
      for (const f of action.fields) delete tips[f];
      Object.assign(tips, tipsOf(action.invalid));
      if (state.status !== 'validating') return { ...state, tips };
      // A change after a sent message starts a new one.
      if (state.prev === 'sent') return { ...state, tips, status: 'init', prev: 'init', message: '' };
      return { ...state, tips, status: state.prev };
    }
    case 'refused':
      return { ...state, status: 'invalid', prev: 'invalid', message: action.message, tips: tipsOf(action.invalid), focus: state.focus + 1 };
    case 'submitting':
      // CF7 clears the response and the tips when a submit starts.
      return { ...state, status: 'submitting', prev: state.status, message: '', tips: {} };
    case 'answer': {
      const a = action.answer;
      const invalid = a.invalid_fields ?? [];
      const status = formStatus(a.status);
      return {
        ...state,
        status,
        prev: status,
        message: a.message ?? '',
        tips: tipsOf(invalid),
        focus: invalid.length > 0 ? state.focus + 1 : state.focus,
      };
    }
    case 'error':
      return { ...state, status: 'failed', prev: 'failed', message: action.message, tips: {} };
    case 'resetting':
      return { ...state, status: 'resetting', prev: action.afterSend ? 'sent' : 'init', tips: {} };
    case 'reset':
      if (state.status !== 'resetting') return state;
      if (state.prev === 'sent') return { ...state, status: 'sent' };
      return { ...state, status: 'init', prev: 'init', message: '' };
  }
  return state;
}
