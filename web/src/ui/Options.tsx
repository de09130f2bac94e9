// A select's options from [value, label] pairs: the lists of kinds, states and
// filters that the forms offer.

import type { ReactNode } from 'react';

export type Choice = readonly [value: string | number, label: ReactNode];

export function Options({ items }: { items: readonly Choice[] }) {
  return (
    <>
      {items.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </>
  );
}
