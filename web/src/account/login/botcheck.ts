/**
 * The invisible bot-check: an ALTCHA proof of work solved by the `altcha`
 * widget (2.3.0), which is never shown. The widget is loaded on first use
 * (browser only: the server render never imports it), fetches a challenge
 * from the shop, solves it in a web worker and hands back the payload the
 * server verifies once. Tests replace `obtainProof` with vi.mock.
 */

type WidgetElement = HTMLElement & { verify: () => Promise<void> };

let loading: Promise<unknown> | null = null;

function loadWidget(): Promise<unknown> {
  loading ??= import('altcha').catch((err) => {
    loading = null; // a failed load is tried again next time
    throw err;
  });
  return loading;
}

/** How long a proof may take before the attempt is given up (ms). */
export const PROOF_TIMEOUT_MS = 30_000;

/**
 * Fetches and solves a challenge from challengeUrl; resolves with the
 * base64 payload for wfls-captcha. The widget lives in `host` (a hidden
 * element outside the forms) only while it works.
 */
export async function obtainProof(challengeUrl: string, host: HTMLElement): Promise<string> {
  await loadWidget();
  const el = document.createElement('altcha-widget') as WidgetElement;
  el.setAttribute('challengeurl', challengeUrl);
  el.setAttribute('auto', 'off');
  el.setAttribute('hidelogo', '');
  el.setAttribute('hidefooter', '');
  el.setAttribute('disableautofocus', '');
  el.setAttribute('name', 'altcha-payload');
  host.appendChild(el);
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('bot-check timed out')), PROOF_TIMEOUT_MS);
      el.addEventListener('statechange', (ev) => {
        const detail = (ev as CustomEvent<{ state: string; payload?: string }>).detail;
        if (detail.state === 'verified' && detail.payload) {
          clearTimeout(timer);
          resolve(detail.payload);
        } else if (detail.state === 'error' || detail.state === 'expired') {
          clearTimeout(timer);
          reject(new Error(`bot-check ${detail.state}`));
        }
      });
      // The custom element upgrades on insertion; its methods exist from the next task on.
      setTimeout(() => {
        el.verify().catch((err: unknown) => {
          clearTimeout(timer);
          reject(err instanceof Error ? err : new Error(String(err)));
        });
      }, 0);
    });
  } finally {
    el.remove();
  }
}
