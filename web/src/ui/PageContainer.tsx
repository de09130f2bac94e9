// The one page container of the shop: every page's content sits in it, so
// every page has the same maximum width and the same side margins at every
// width (.container in styles/main.css: the gutter grows from 16px on a
// phone to 32px on a wide screen). narrow: a page of one short column
// (720px), such as a form or a message.

import type { HTMLAttributes, ReactNode } from 'react';

export function PageContainer({
  className,
  narrow,
  children,
  ...rest
}: { className?: string; narrow?: boolean; children: ReactNode } & HTMLAttributes<HTMLDivElement>) {
  const names = ['container', narrow ? 'narrow' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <div className={names} {...rest}>
      {children}
    </div>
  );
}
