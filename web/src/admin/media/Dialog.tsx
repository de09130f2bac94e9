// A modal dialog: the page behind is inert for the pointer (an overlay) and
// for the keyboard (Tab cycles inside), Escape closes it, focus starts on
// the element given (or the first control) and the opener gets it back.

import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { FOCUSABLE, keepTabInside, stopsIn } from '../../lib/focus-trap';


export function Dialog({ role = 'dialog', labelledBy, describedBy, onClose, initialFocus, className, children }: {
  role?: 'dialog' | 'alertdialog';
  labelledBy: string;
  describedBy?: string;
  onClose: () => void;
  initialFocus?: RefObject<HTMLElement | null>;
  className?: string;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    (initialFocus?.current ?? box.current?.querySelector<HTMLElement>(FOCUSABLE) ?? box.current)?.focus();
    return () => {
      // The opener, when the dialog's owner has not sent focus elsewhere.
      if (opener?.isConnected && (document.activeElement === document.body || document.activeElement === null)) opener.focus();
    };
  }, []);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      close.current();
      return;
    }
    keepTabInside(e, () => stopsIn(box.current));
  };

  return (
    <div className="media-overlay">
      <div ref={box} role={role} aria-modal="true" aria-labelledby={labelledBy} aria-describedby={describedBy} tabIndex={-1} className={'media-dialog ' + (className ?? '')} onKeyDown={onKeyDown}>
        {children}
      </div>
    </div>
  );
}
