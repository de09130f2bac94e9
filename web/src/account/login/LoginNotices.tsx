import { forwardRef, type MouseEvent } from 'react';
import type { LoginNotice } from '../../types';

/**
 * Notices above a form: an always-present alert region (so a new notice is
 * announced), focusable so a refused submit can move focus to it. The HTML
 * is the server's own (its fixed texts; user input in it is escaped).
 */
export const LoginNotices = forwardRef<HTMLDivElement, { id: string; notices: LoginNotice[]; onClick?: (e: MouseEvent<HTMLDivElement>) => void }>(
  function LoginNotices({ id, notices, onClick }, ref) {
    return (
      <div ref={ref} id={id} className="woocommerce-notices-wrapper" role="alert" tabIndex={-1} onClick={onClick}>
        {notices.map((n, i) =>
          n.kind === 'error' ? (
            <ul key={`${i}-${n.html}`} className="woocommerce-error">
              <li dangerouslySetInnerHTML={{ __html: n.html }} />
            </ul>
          ) : (
            <div key={`${i}-${n.html}`} className="woocommerce-message" dangerouslySetInnerHTML={{ __html: n.html }} />
          ),
        )}
      </div>
    );
  },
);
