/**
 * Which items of a server's list (tools, resources, templates, prompts) get a row in the Servers view, and how each
 * row's id stays unique. A server may list an item without the field its row is named and found by (a tool without a
 * name, a template without a uriTemplate), or two items of one name: lint reports both (mcp/required-field,
 * mcp/duplicate-name, in Problems), and the view must still draw every other row. VS Code fails a whole refresh when
 * one row's item cannot be built, and stops drawing a list at a second row of the same id (VS Code 1.100; 1.139 draws
 * it but refreshes no row of the list afterwards). So only items with their key get a row, and the second and later
 * items of one key are numbered. No vscode here: test/unit/extension/features/serversView/rowLists.test.ts.
 */
import type { Prompt, Resource, ResourceTemplate, Tool } from '../../../protocol/types';

/** The rows of each list seen, so a list that did not change gives the same array (the view caches by identity). */
const rowsOfList = new WeakMap<readonly unknown[], readonly unknown[]>();
/** An item that repeats its list's key: its number among them (2 for the second). */
const repeats = new WeakMap<object, number>();

/** The items of `items` that get a row: those whose `key` is a string; a repeated key's rows are numbered. */
export function rowItems<T>(items: readonly T[], key: (item: T) => unknown): readonly T[] {
  const known = rowsOfList.get(items) as readonly T[] | undefined;
  if (known) return known;
  const seen = new Map<string, number>();
  const rows = items.filter((item) => {
    if (typeof item !== 'object' || item === null) return false;
    const value = key(item);
    if (typeof value !== 'string') return false;
    const count = (seen.get(value) ?? 0) + 1;
    seen.set(value, count);
    if (count > 1) repeats.set(item, count);
    return true;
  });
  const result = rows.length === items.length ? items : rows;
  rowsOfList.set(items, result);
  return result;
}

/**
 * The segment of a row's id that names its kind (`tool`, `prompt`, …): for a repeated key numbered (`tool#2`), so
 * `<server>/tool#2/echo` is an id no first row has, whatever its name holds.
 */
export function rowKind(kind: string, item: object): string {
  const count = repeats.get(item);
  return count === undefined ? kind : `${kind}#${count}`;
}

export const rowTools = (tools: readonly Tool[]) => rowItems(tools, (tool) => tool.name);
// A resource's and a template's row is labelled by its name (their title is optional), and found by its URI.
export const rowResources = (resources: readonly Resource[]) =>
  rowItems(resources, (resource) => (typeof resource.name === 'string' ? resource.uri : undefined));
export const rowTemplates = (templates: readonly ResourceTemplate[]) =>
  rowItems(templates, (template) => (typeof template.name === 'string' ? template.uriTemplate : undefined));
export const rowPrompts = (prompts: readonly Prompt[]) => rowItems(prompts, (prompt) => prompt.name);
