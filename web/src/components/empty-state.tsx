import type { ReactNode } from 'react';

/** What a person sees where a list is empty: what is missing and what to do next. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-title">{title}</p>
      {children ? <div className="empty-next">{children}</div> : null}
    </div>
  );
}
