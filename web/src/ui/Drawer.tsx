import { useEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { keepTabInside, shownStopsIn } from '../lib/focus-trap';

/**
 * An off-canvas panel (the header's mobile menu, the listing's filters on
 * phones): a native <dialog> opened with showModal(), so the page behind is
 * inert and Escape closes it; labelled by its heading; focus goes to its
 * close button, Tab and Shift+Tab wrap inside it, and when it closes focus
 * goes back to returnFocus (the button that opened it). While it is open
 * the root element carries htmlClass (the page behind does not scroll).
 * `closeAt` is a media query: when it stops matching (the viewport grew
 * past the breakpoint) the drawer closes. className names the dialog; its
 * parts are className__inner, __head, __title and __close.
 */
export function Drawer({
  id,
  className,
  title,
  closeLabel,
  open,
  onClose,
  returnFocus,
  htmlClass,
  closeAt,
  children,
}: {
  id: string;
  className: string;
  title: ReactNode;
  closeLabel: string;
  open: boolean;
  onClose: () => void;
  returnFocus: RefObject<HTMLElement | null>;
  htmlClass: string;
  closeAt?: string;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const titleId = `${id}-title`;

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      document.documentElement.classList.add(htmlClass);
      if (typeof d.showModal === 'function') d.showModal();
      else d.setAttribute('open', '');
      closeButton.current?.focus();
    } else if (!open && d.open) {
      if (typeof d.close === 'function') d.close();
      else d.removeAttribute('open');
      closed();
    }
  }, [open]);

  // Grown past the breakpoint: what the drawer holds is in the page again.
  useEffect(() => {
    if (!open || !closeAt || typeof window.matchMedia !== 'function') return;
    const mq = window.matchMedia(closeAt);
    const onChange = () => {
      if (!mq.matches) onClose();
    };
    mq.addEventListener?.('change', onChange);
    return () => mq.removeEventListener?.('change', onChange);
  }, [open, closeAt, onClose]);

  function closed() {
    document.documentElement.classList.remove(htmlClass);
    returnFocus.current?.focus();
  }

  // Escape (the dialog's cancel) and any other native close.
  const onNativeClose = () => {
    if (open) {
      onClose();
      closed();
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key === 'Escape') {
      // A popup inside (search suggestions) closes first; otherwise Escape
      // closes the drawer, also from fields that keep Escape for themselves.
      if ((e.target as HTMLElement).getAttribute?.('aria-expanded') === 'true') return;
      e.preventDefault();
      onClose();
      return;
    }
    const root = e.currentTarget;
    keepTabInside(e, () => shownStopsIn(root), root);
  };

  return (
    <dialog
      ref={dialog}
      id={id}
      className={className}
      aria-labelledby={titleId}
      onClose={onNativeClose}
      onKeyDown={onKeyDown}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose(); // a click on the backdrop
      }}
    >
      <div className={`${className}__inner`}>
        <div className={`${className}__head`}>
          <h2 className={`${className}__title`} id={titleId}>
            {title}
          </h2>
          <button type="button" className={`${className}__close`} ref={closeButton} onClick={onClose}>
            <span aria-hidden="true">×</span>
            <span className="screen-reader-text">{closeLabel}</span>
          </button>
        </div>
        {children}
      </div>
    </dialog>
  );
}
