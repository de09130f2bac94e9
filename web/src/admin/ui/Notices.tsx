// Notices after an action: "Product updated." or what went wrong. They are
// in a live region that exists before any notice does, so screen readers
// announce each one (errors assertively, the rest politely); an error
// notice can be dismissed.

import { useCallback, useState } from 'react';

export interface Notice {
  id: number;
  kind: 'success' | 'error' | 'info';
  text: string;
}

let next = 1;

export function useNotices() {
  const [notices, setNotices] = useState<Notice[]>([]);
  const push = useCallback((kind: Notice['kind'], text: string) => {
    const id = next++;
    // One notice at a time: the newest says what the last action did.
    setNotices([{ id, kind, text }]);
  }, []);
  const clear = useCallback(() => setNotices([]), []);
  const dismiss = useCallback((id: number) => setNotices((ns) => ns.filter((n) => n.id !== id)), []);
  return { notices, push, clear, dismiss };
}

export function Notices({ notices, dismiss }: { notices: Notice[]; dismiss: (id: number) => void }) {
  const errors = notices.filter((n) => n.kind === 'error');
  const others = notices.filter((n) => n.kind !== 'error');
  return (
    <div className="admin-notices">
      <div role="alert">
        {errors.map((n) => (
          <div key={n.id} className="admin-notice admin-notice--error">
            <p>{n.text}</p>
            <button type="button" className="admin-notice__dismiss" onClick={() => dismiss(n.id)} aria-label="Dismiss this notice">
              Dismiss
            </button>
          </div>
        ))}
      </div>
      <div role="status">
        {others.map((n) => (
          <div key={n.id} className={`admin-notice admin-notice--${n.kind}`}>
            <p>{n.text}</p>
          </div>
        ))}
      </div>
    </div>
  );
}
