import type { ComponentChildren } from 'preact';
import { Empty } from './empty';
import { TableScroll } from './table-scroll';

export interface RecordTableProps<T> {
  /** What the rows are and in which order, for screen readers (the card's heading says it to the eye). */
  caption: string;
  /** The column headings, left to right. */
  headings: readonly string[];
  records: readonly T[];
  /** One record's row (`<tr key=…>`); its first cell names the record (`<th scope="row">`) where one does. */
  row: (record: T, index: number) => ComponentChildren;
  /** What is said instead of the table when there are no records; without it the table shows with no rows. */
  empty?: ComponentChildren;
  /** `table` and its variants (`table table--compact` for logs and many columns). */
  className?: string;
}

/**
 * A table of records, one a row under column headings; or, with none, a line that says so (and what
 * to do), in a box it scrolls inside when it is wider than its card.
 */
export const RecordTable = <T,>(props: RecordTableProps<T>) =>
  props.records.length === 0 && props.empty !== undefined ? (
    <Empty>{props.empty}</Empty>
  ) : (
    <TableScroll label={props.caption}>
      <table className={props.className ?? 'table'}>
        <caption className="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.headings.map((heading) => (
              <th scope="col" key={heading}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.records.map(props.row)}</tbody>
      </table>
    </TableScroll>
  );
