import type { CommandContext } from './command';

/** What a page of a list says of the whole list. */
export interface PageMeta {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
}

/**
 * A list command's items. With `--all` (the pages followed) every item; else one page, whose `meta`
 * goes with it in `--json`, and a note on stderr when the page leaves items out, so that 20 rows
 * are never taken for the whole list.
 */
export const printList = <T>(context: CommandContext, items: T[], meta: PageMeta | undefined, human: () => string): void => {
  context.out.result(meta ? { data: items, meta } : { data: items }, human);
  if (!context.out.json && meta && meta.total > items.length) {
    context.out.error(`Showing ${items.length} of ${meta.total} (page ${meta.page} of ${meta.total_pages}): --all for every one.`);
  }
};
