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
    const next = meta.page < meta.total_pages ? `--page ${meta.page + 1} for the next, ` : '';
    context.out.error(`Showing ${items.length} of ${meta.total} (page ${meta.page} of ${meta.total_pages}): ${next}--all for every one.`);
  }
};

/** A list command's items: every one with `--all` (the pages followed), else one page with its `meta`. */
export const readList = async <T>(
  context: CommandContext,
  every: () => AsyncIterable<unknown>,
  onePage: () => Promise<{ data: readonly unknown[]; meta: PageMeta }>,
): Promise<{ items: T[]; meta?: PageMeta }> => {
  if (!context.values.all) {
    const page = await onePage();
    return { items: page.data as T[], meta: page.meta };
  }
  const items: T[] = [];
  for await (const item of every()) items.push(item as T);
  return { items };
};
