// "Delete this image?": an alert dialog whose first focus is Cancel, the
// safe answer.

import { useId, useRef, type ReactNode } from 'react';
import { Dialog } from './Dialog';

export function ConfirmDialog({ title, confirmLabel, onConfirm, onCancel, children }: { title: string; confirmLabel: string; onConfirm: () => void; onCancel: () => void; children: ReactNode }) {
  const id = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Dialog role="alertdialog" labelledBy={id + '-title'} describedBy={id + '-text'} onClose={onCancel} initialFocus={cancel}>
      <h2 id={id + '-title'}>{title}</h2>
      <p id={id + '-text'}>{children}</p>
      <div className="media-details__actions">
        <button type="button" className="admin-danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" ref={cancel} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
