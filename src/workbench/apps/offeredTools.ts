import { isVisibleToModel } from '../../protocol/extensions/apps/toolUi';
import type { Tool } from '../../protocol/types';

const offered = new WeakMap<readonly Tool[], readonly Tool[]>();

/**
 * The tools offered to the person: the tree's Tools group and its "N tools" count, the CodeLens count and the Call
 * Tool picker. While apps are on, a tool whose `_meta.ui.visibility` leaves out "model" (["app"]) is its app's alone
 * and is not offered; with apps off every listed tool is. The same input list gives the same output list, so views
 * that cache rows by list identity keep them.
 */
export function offeredTools(tools: readonly Tool[], appsOn: boolean): readonly Tool[] {
  if (!appsOn) return tools;
  let shown = offered.get(tools);
  if (!shown) {
    const filtered = tools.filter(isVisibleToModel);
    shown = filtered.length === tools.length ? tools : filtered;
    offered.set(tools, shown);
  }
  return shown;
}
