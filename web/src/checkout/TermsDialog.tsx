import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { Html } from '../ui/Html';
import { decodeEntities } from '../lib/format';
import { keepTabInside, stopsIn } from '../lib/focus-trap';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The terms and conditions in a modal lightbox (native dialog): focus goes to
 * the close button, Tab and Shift+Tab stay inside, Escape or the close button
 * (or a click on the backdrop) close it, and focus returns to the opener.
 */
export function TermsDialog({ title, html, opener, onClosed }: { title: string; html: string; opener: HTMLElement | null; onClosed: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d || d.open) return;
    if (typeof d.showModal === 'function') d.showModal();
    else d.setAttribute('open', '');
    d.querySelector<HTMLElement>('.terms-dialog__close')?.focus();
  }, []);

  const close = () => {
    const d = ref.current;
    if (d && typeof d.close === 'function' && d.open) d.close();
    else finish();
  };
  const finish = () => {
    if (opener && opener.isConnected) opener.focus();
    onClosed();
  };

  const trap = (e: KeyboardEvent<HTMLDialogElement>) => {
    const root = e.currentTarget;
    keepTabInside(e, () => stopsIn(root, FOCUSABLE), root);
  };

  return (
    <dialog
      ref={ref}
      className="terms-dialog"
      aria-labelledby={titleId}
      onKeyDown={trap}
      onClose={finish}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) close();
      }}
    >
      <div className="terms-dialog__inner">
        <div className="terms-dialog__head">
          <h2 id={titleId}>{decodeEntities(title)}</h2>
          <button type="button" className="terms-dialog__close" onClick={close}>
            <span aria-hidden="true">×</span>
            <span className="screen-reader-text">Close (Esc)</span>
          </button>
        </div>
        <div className="terms-dialog__body" tabIndex={0} role="region" aria-labelledby={titleId}>
          <Html html={html} className="terms-content" />
        </div>
      </div>
    </dialog>
  );
}
