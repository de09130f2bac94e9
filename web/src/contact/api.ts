import type { FeedbackAnswer } from './state';

/** CF7's client failure texts (spec section 8). */
export const OFFLINE = 'You are probably offline.';
export const INVALID_JSON = 'The response is not a valid JSON response.';
export const UNKNOWN_ERROR = 'An unknown error occurred.';

export type FeedbackResult = { ok: true; answer: FeedbackAnswer } | { ok: false; message: string };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * POSTs the form's multipart body to the feedback route and reads the
 * answer as CF7's client does: a network failure is "offline", a 2xx body
 * that is not JSON is "invalid JSON", a 2xx JSON without a status, or an
 * error status without a JSON error message, is "unknown"; an error status
 * with a JSON `{code, message}` shows that message.
 */
export async function postFeedback(url: string, body: FormData): Promise<FeedbackResult> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', body, credentials: 'same-origin', headers: { Accept: 'application/json' } });
  } catch {
    return { ok: false, message: OFFLINE };
  }
  let text: string;
  try {
    text = await res.text();
  } catch {
    return { ok: false, message: OFFLINE };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, message: res.ok ? INVALID_JSON : UNKNOWN_ERROR };
  }
  if (!res.ok) {
    return { ok: false, message: isObject(data) && typeof data.message === 'string' && data.message ? data.message : UNKNOWN_ERROR };
  }
  if (!isObject(data) || typeof data.status !== 'string') return { ok: false, message: UNKNOWN_ERROR };
  return { ok: true, answer: data as unknown as FeedbackAnswer };
}

/**
 * GETs the refill route after a sent message (protocol-notes 10.2). The
 * shop's forms have no CAPTCHA image nor quiz, so nothing in the answer
 * needs applying; a failure changes nothing.
 */
export async function refill(url: string): Promise<void> {
  try {
    const res = await fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    await res.text();
  } catch {
    // The form is reset either way.
  }
}
