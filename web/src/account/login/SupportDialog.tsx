import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { LoginNotice } from '../../types';
import { LoginNotices } from './LoginNotices';
import { SUPPORT_FAILED, postAjax } from './api';

/** The longest message the server takes (characters). */
export const SUPPORT_MAX = 2000;

/**
 * The "Message to Support" overlay (protocol notes section 8.1): a modal
 * dialog whose form posts the registration's email and username, the
 * message and its signed token to wordfence_ls_register_support. Success
 * shows the answer and disables the textarea and the button (spec section
 * 4); a failure shows the error and lets the visitor try again. Escape or
 * Close closes it and focus returns to the link that opened it.
 */
export function SupportDialog({
  ajaxUrl,
  nonce,
  fields,
  opener,
  onClosed,
}: {
  ajaxUrl: string;
  nonce: string;
  fields: () => { email: string; username: string };
  opener: HTMLElement | null;
  onClosed: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const [notices, setNotices] = useState<LoginNotice[]>([]);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const d = ref.current;
    if (!d || d.open) return;
    if (typeof d.showModal === 'function') d.showModal();
    else d.setAttribute('open', '');
    textRef.current?.focus();
  }, []);

  const finish = () => {
    if (opener && opener.isConnected) opener.focus();
    onClosed();
  };
  const close = () => {
    const d = ref.current;
    if (d && typeof d.close === 'function' && d.open) d.close();
    else finish();
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy || sent) return;
    setBusy(true);
    const { email, username } = fields();
    const body = new URLSearchParams({
      action: 'wordfence_ls_register_support',
      email,
      username,
      'wfls-message': textRef.current?.value ?? '',
      'wfls-message-nonce': nonce,
    });
    const res = await postAjax<{ message?: string; error?: string }>(ajaxUrl, body);
    setBusy(false);
    if (res.ok && res.data.message) {
      setNotices([{ kind: 'message', html: res.data.message }]);
      setSent(true);
      closeRef.current?.focus(); // the textarea is disabled now
      return;
    }
    const html = res.ok && res.data.error ? res.data.error : SUPPORT_FAILED;
    setNotices([{ kind: 'error', html }]);
    textRef.current?.focus();
  };

  return (
    <dialog
      ref={ref}
      id="wfls-support-overlay"
      className="wfls-overlay"
      aria-labelledby="wfls-support-title"
      onClose={finish}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
    >
      <form className="wfls-overlay__inner" onSubmit={onSubmit}>
        <h2 id="wfls-support-title">Message to Support</h2>
        <p>Tell the shop's support team what happened; they will answer by email.</p>
        <LoginNotices id="wfls-support-notices" notices={notices} />
        <p className="form-row">
          <label htmlFor="wfls-message">Message</label>
          <textarea ref={textRef} id="wfls-message" name="wfls-message" rows={5} maxLength={SUPPORT_MAX} required disabled={sent} />
        </p>
        <input type="hidden" name="wfls-message-nonce" value={nonce} />
        <p className="wfls-overlay__actions">
          <button type="submit" className="button alt" disabled={sent} aria-disabled={busy || undefined}>
            Send
          </button>
          <button ref={closeRef} type="button" className="button" onClick={close}>
            Close
          </button>
        </p>
      </form>
    </dialog>
  );
}
