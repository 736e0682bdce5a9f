import { LocalError } from '../errors';
import { LIST_ITEM_KEYS, type ListItems, type ListMethod } from '../methods';
import type { JsonObject } from '../types';

/** A server whose cursors never end is cut off here. */
const MAX_PAGES = 10_000;

/**
 * Every page of a list method, following `nextCursor`. A cursor seen twice (an endless loop) or more than MAX_PAGES
 * pages end the listing with an error naming the server; a page whose items are missing is a protocol violation.
 */
export async function listAllPages<M extends ListMethod>(
  serverName: string,
  method: M,
  fetchPage: (cursor: string | undefined) => Promise<JsonObject>,
): Promise<ListItems[M][]> {
  const key = LIST_ITEM_KEYS[method];
  const items: ListItems[M][] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(cursor);
    const pageItems: unknown = result[key];
    if (!Array.isArray(pageItems))
      throw new LocalError('protocol-violation', `${serverName}: ${method} result has no "${key}" array`);
    // One at a time: spreading a hostile 200,000-item page into push() overflows the call stack.
    for (const item of pageItems as ListItems[M][]) items.push(item);
    const next = result.nextCursor;
    if (typeof next !== 'string') return items;
    if (seenCursors.has(next)) {
      throw new LocalError(
        'protocol-violation',
        `${serverName}: ${method} returned cursor ${JSON.stringify(next)} twice; stopping to avoid an endless loop`,
      );
    }
    seenCursors.add(next);
    cursor = next;
  }
  throw new LocalError('protocol-violation', `${serverName}: ${method} returned more than ${MAX_PAGES} pages`);
}
