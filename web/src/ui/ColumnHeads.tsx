// A table's header row from a list of column names: the shop's tables and the
// admin's name their columns the same way, a th a column (scope="col" unless
// said otherwise), a class where the theme styles the column, and a name only
// screen readers read for a column of buttons or pictures.

import type { ReactNode } from 'react';

export interface Column {
  label: string;
  className?: string;
  /** Named to screen readers only (a column of actions or images). */
  hidden?: boolean;
}

export function ColumnHeads({ columns, scoped = true, className, lead }: {
  columns: (string | Column)[];
  /** scope="col" on each th (WooCommerce's cart table has none). */
  scoped?: boolean;
  className?: string;
  /** A cell before the named columns (a select-all box). */
  lead?: ReactNode;
}) {
  return (
    <thead className={className}>
      <tr>
        {lead}
        {columns.map((c) => {
          const col = typeof c === 'string' ? { label: c } : c;
          return (
            <th key={col.label} scope={scoped ? 'col' : undefined} className={col.className}>
              {col.hidden ? <span className="screen-reader-text">{col.label}</span> : col.label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
