/** Which page of a list is shown, of how many; what a list page's props carry for `Pagination`. */
export interface Paged {
  page: number;
  totalPages: number;
  total: number;
  /** A page's address with the current filters. */
  hrefOf(page: number): string;
}

/** Page links under a list. */
export const Pagination = (props: Paged) =>
  props.totalPages <= 1 ? (
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
