// A confirmation before an action that is hard to undo ("Move 3 products
// to the trash?"): a modal dialog that takes focus on its safe choice,
// keeps Tab inside, closes on Escape, and gives focus back to the control
// that opened it.

import { useEffect, useId, useRef, type ReactNode } from 'react';
import { keepTabInside, stopsIn } from '../../lib/focus-trap';
import './confirm.css';

export function Confirm({ title, children, confirmLabel, danger, onConfirm, onCancel }: { title: string; children?: ReactNode; confirmLabel: string; danger?: boolean; onConfirm: () => void; onCancel: () => void }) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    cancel.current?.focus();
    return () => opener?.focus?.();
  }, []);
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      onCancel();
      return;
    }
    keepTabInside(e, () => stopsIn(box.current, 'button:not([disabled])'));
  };
  return (
    <div className="admin-modal-backdrop">
      <div ref={box} className="admin-modal" role="alertdialog" aria-modal="true" aria-labelledby={id + '-title'} aria-describedby={children ? id + '-body' : undefined} onKeyDown={onKey}>
        <h2 id={id + '-title'}>{title}</h2>
        {children ? <div id={id + '-body'}>{children}</div> : null}
        <div className="admin-modal__actions">
          <button ref={cancel} type="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className={danger ? 'admin-danger' : 'admin-primary'} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
