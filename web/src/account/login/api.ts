/** The login wire (protocol notes section 8): admin-ajax calls and the spec's failure texts. */

/** wordfence_ls_authenticate's answer. */
export interface LSAnswer {
  error?: string;
  message?: string;
  reset?: boolean;
  login?: number;
  two_factor_required?: boolean;
  /** A signed proof for wfls-captcha-jwt: the real submit needs no new proof of work. */
  captcha?: string;
  /**
   * With an error: the account had many failed logins, and the attempt
   * needs the stronger bot-check from this challenge URL (the form runs it
   * and sends the attempt again, once).
   */
  botcheck?: string;
}

/** Spec section 4: HTTP 403 or 503 on the shop's account page. */
export function statusFailedText(status: number): string {
  return `<strong>ERROR</strong>: Login failed with status code ${status}. Please contact the site administrator.`;
}

/** Spec section 4: any other failure of the login call. */
export const AUTH_FAILED = '<strong>ERROR</strong>: An error was encountered while trying to authenticate. Please try again.';
/** Spec section 4: the support message could not be sent. */
export const SUPPORT_FAILED = 'An error was encountered while trying to send the message. Please try again.';
/** The registration's proof of work could not be obtained. */
export const REGISTER_FAILED = '<strong>ERROR</strong>: An error was encountered while checking that you are not a robot. Please try again.';

/** The result of an admin-ajax call: the parsed answer, or why there is none. */
export type AjaxResult<T> = { ok: true; data: T } | { ok: false; status: number };

/** POSTs a form to admin-ajax and parses the JSON answer (status 0: no answer at all). */
export async function postAjax<T>(url: string, body: URLSearchParams): Promise<AjaxResult<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8', Accept: 'application/json' },
      body: body.toString(),
    });
  } catch {
    return { ok: false, status: 0 };
  }
  if (!res.ok) return { ok: false, status: res.status };
  try {
    return { ok: true, data: (await res.json()) as T };
  } catch {
    return { ok: false, status: res.status };
  }
}
