import type { ComponentChildren } from 'preact';

/**
 * A table's box: a table wider than its card scrolls sideways inside it rather than spilling over
 * the page. Named and focusable, so that a keyboard can scroll it too (WCAG 2.1.1).
 */
export const TableScroll = (props: { label: string; children: ComponentChildren }) => (
  <div className="table-scroll" role="region" aria-label={props.label} tabIndex={0}>
    {props.children}
  </div>
);
