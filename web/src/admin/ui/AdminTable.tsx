// The admin's plain tables (an order's items, refunds and mails, the
// currencies, an attribute's values, the media list): a caption for screen
// readers, the header row from the column names, and the rows.

import type { ReactNode } from 'react';
import { ColumnHeads, type Column } from '../../ui/ColumnHeads';

export function AdminTable({ className, caption, columns, busy, children }: {
  /** Classes besides admin-table. */
  className?: string;
  caption: ReactNode;
  columns: (string | Column)[];
  /** The rows are being loaded (aria-busy on the body). */
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <table className={className ? `admin-table ${className}` : 'admin-table'}>
      <caption className="screen-reader-text">{caption}</caption>
      <ColumnHeads columns={columns} />
      <tbody aria-busy={busy || undefined}>{children}</tbody>
    </table>
  );
}
