import type { ComponentChildren } from 'preact';

/** A framed section of a page. */
export const Card = ({ children }: { children: ComponentChildren }) => <section className="card">{children}</section>;
