/** Which page of a list is shown, of how many; what a list page's props carry for `Pagination`. */
export interface Paged {
  page: number;
  totalPages: number;
  total: number;
  /** A page's address with the current filters. */
  hrefOf(page: number): string;
}

/**
 * Page links under a list, or its count when it fits one page. None under a list whose filter was
 * refused (`filterErrors`): nothing was counted, and "0 items" would say nothing matched.
 */
export const Pagination = (props: Paged & { filterErrors?: Record<string, string> }) =>
  props.filterErrors && Object.keys(props.filterErrors).length > 0 ? null : props.totalPages <= 1 ? (
    <p className="muted">{props.total === 1 ? '1 item' : `${props.total} items`}</p>
  ) : (
    <nav className="pagination" aria-label="Pages">
      {props.page > 1 && (
        <a href={props.hrefOf(props.page - 1)} rel="prev">
          Previous page
        </a>
      )}
      <span>
        Page {props.page} of {props.totalPages} ({props.total} items)
      </span>
      {props.page < props.totalPages && (
        <a href={props.hrefOf(props.page + 1)} rel="next">
          Next page
        </a>
      )}
    </nav>
  );
