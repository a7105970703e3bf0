import type { ComponentChildren } from 'preact';

/** A list that is empty says so, and what to do. */
export const Empty = ({ children }: { children: ComponentChildren }) => <p className="empty muted">{children}</p>;
