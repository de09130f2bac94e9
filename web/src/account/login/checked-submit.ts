// A login or registration form's submit held for the bot-check: the form
// posts for real only once the check passed (release). Until then a submit
// runs the check, once at a time, with the button busy and the check said to
// screen readers.

import { useRef, useState, type FormEvent, type RefObject } from 'react';

export const VERIFYING = 'Checking that you are not a robot, please wait…';

/**
 * onSubmit runs check(form) (busy, VERIFYING said) unless a check runs
 * already; release(form) submits the form for real through submitter, a
 * submit that onSubmit lets through.
 */
export function useCheckedSubmit(submitter: RefObject<HTMLButtonElement | null>, check: (form: HTMLFormElement) => Promise<void>) {
  const releasing = useRef(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    if (releasing.current) return; // the real submit
    e.preventDefault();
    if (busy) return;
    const form = e.currentTarget;
    setBusy(true);
    setStatus(VERIFYING);
    try {
      await check(form);
    } finally {
      setBusy(false);
      setStatus('');
    }
  };

  const release = (form: HTMLFormElement) => {
    releasing.current = true;
    if (typeof form.requestSubmit === 'function') form.requestSubmit(submitter.current ?? undefined);
    else form.submit();
    releasing.current = false;
  };

  return { busy, status, setStatus, onSubmit, release };
}
