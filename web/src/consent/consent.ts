// The shopper's consent to non-essential cookies and storage (order
// attribution's sbjs_* cookies, recently viewed products), read and written
// in the browser only: every viewer gets the same cached page, and the
// banner, the tracking and the footer's "Cookie settings" read the choice
// after hydration (docs/decisions/0102-consent.md).
//
// The choice is remembered in the first-party cookie vitrine_consent
// (granted or denied), which is strictly necessary: it is what lets a
// refusal be honoured on the next page. The server reads the same cookie,
// and the Sec-GPC header, when a checkout sends attribution
// (internal/consent). Global Privacy Control (navigator.globalPrivacyControl)
// is a refusal that needs no banner.

import { useEffect, useState } from 'react';

/** The cookie remembering the choice (internal/consent.CookieName). */
export const CONSENT_COOKIE = 'vitrine_consent';
/** How long a choice is remembered before the banner asks again: about six months. */
export const CONSENT_MAX_AGE = 182 * 24 * 60 * 60;

/** The shopper's choice; '' while none was made. */
export type Choice = 'granted' | 'denied' | '';

/** The shop's consent settings (page data settings.consent); absent: no banner. */
export type ConsentSettings = { banner: boolean } | undefined;

/** The choice in a cookie header (document.cookie); anything else is ''. */
export function readChoice(cookies: string): Choice {
  for (const part of cookies.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === CONSENT_COOKIE && (value === 'granted' || value === 'denied')) return value;
  }
  return '';
}

/** The string document.cookie takes to remember choice. */
export function consentCookie(choice: 'granted' | 'denied', secure: boolean): string {
  return `${CONSENT_COOKIE}=${choice}; path=/; max-age=${CONSENT_MAX_AGE}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The browser's Global Privacy Control signal. */
export function gpcOn(nav: Navigator | undefined = typeof navigator === 'undefined' ? undefined : navigator): boolean {
  return (nav as (Navigator & { globalPrivacyControl?: boolean }) | undefined)?.globalPrivacyControl === true;
}

/**
 * Whether non-essential storage is allowed: never under Global Privacy
 * Control or after a Reject; with the banner on, only after an Accept; a
 * shop without the banner keeps storing as before (internal/consent.Allows).
 */
export function allows(settings: ConsentSettings, choice: Choice, gpc: boolean): boolean {
  if (gpc || choice === 'denied') return false;
  return !settings?.banner || choice === 'granted';
}

// The choice in this page: read from the cookie on first use, changed by
// the banner. Listeners are the banner, the footer's link, the tracking.

interface State {
  choice: Choice;
  /** The banner was reopened (the footer's "Cookie settings"); focus goes back to opener when it closes. */
  reopened: boolean;
  opener: HTMLElement | null;
}

let state: State | null = null;
const listeners = new Set<() => void>();

function current(): State {
  if (!state) state = { choice: typeof document === 'undefined' ? '' : readChoice(document.cookie), reopened: false, opener: null };
  return state;
}

function update(next: Partial<State>): void {
  state = { ...current(), ...next };
  for (const l of [...listeners]) l();
}

/** The choice made in this browser ('' for none). */
export function currentChoice(): Choice {
  return current().choice;
}

/** Whether non-essential storage is allowed now, in this browser. */
export function nonEssentialAllowed(settings: ConsentSettings): boolean {
  return allows(settings, currentChoice(), gpcOn());
}

/** Remembers choice in the cookie and tells the page; the banner closes. */
export function choose(choice: 'granted' | 'denied'): void {
  document.cookie = consentCookie(choice, window.location.protocol === 'https:');
  update({ choice, reopened: false });
}

/** Opens the banner again (the footer's "Cookie settings"), to go back to opener. */
export function reopenBanner(opener: HTMLElement | null): void {
  update({ reopened: true, opener });
}

/** Closes a reopened banner without a new choice. */
export function closeBanner(): void {
  update({ reopened: false });
}

/** Calls l after every change; answers the unsubscribe. */
export function onConsentChange(l: () => void): () => void {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
}

export interface ConsentView {
  choice: Choice;
  reopened: boolean;
  opener: HTMLElement | null;
  gpc: boolean;
  /** False in the server render and the hydrating render: nothing of the choice shows then. */
  ready: boolean;
}

const SERVER_VIEW: ConsentView = { choice: '', reopened: false, opener: null, gpc: false, ready: false };

/**
 * The choice in a component. The server render and the first browser render
 * (hydration) see no choice, so the shared page's HTML never depends on
 * the viewer; the real one comes in an effect.
 */
export function useConsent(): ConsentView {
  const [view, setView] = useState<ConsentView>(SERVER_VIEW);
  useEffect(() => {
    const read = () => setView({ ...current(), gpc: gpcOn(), ready: true });
    read();
    return onConsentChange(read);
  }, []);
  return view;
}

/** Tests only: forget the choice read from the cookie. */
export function resetConsentForTests(): void {
  state = null;
}
