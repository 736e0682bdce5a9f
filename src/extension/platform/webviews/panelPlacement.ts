/**
 * Where a panel of ours (a tool form, a result tab, the review panel) opens: in one side group beside the person's
 * editor. Beside the first time; then the group our panels already use; never a new third column. VS Code's own
 * `ViewColumn.Beside` reuses the group to the right of the active one but creates a new group when the active group is
 * the rightmost: with a form focused in the side group, the next panel made a third, cramped column (the first-hour
 * trial, 2.7). No vscode import: it runs in unit tests (panelColumn.ts applies it).
 */

/** An editor group as VS Code numbers them (`viewColumn`, 1 for the leftmost), whether it is active and has tabs. */
export interface GroupState {
  column: number;
  active: boolean;
  empty: boolean;
}

/**
 * - `person`: the person opened it (a form, a result tab); it may open in the active group when that is our side group.
 * - `server`: a server asks (the review panel); it stays out of the active group, where the person is typing.
 */
export type PanelOpener = 'person' | 'server';

/** A group's column, or `beside`: a new group to the right of the only one (the first time). */
export type Placement = { kind: 'column'; column: number } | { kind: 'beside' };

export function placePanel(
  groups: readonly GroupState[],
  ourColumn: number | undefined,
  opener: PanelOpener,
): Placement {
  const active = groups.find((group) => group.active) ?? groups[0];
  const usable = (column: number) => opener === 'person' || column !== active?.column;
  // The group a panel of ours is in: all our panels share it.
  if (ourColumn !== undefined && groups.some((group) => group.column === ourColumn) && usable(ourColumn))
    return { kind: 'column', column: ourColumn };
  if (groups.length <= 1) {
    // An empty editor area: opening beside it would leave an empty group on the left.
    if (active?.empty && opener === 'person') return { kind: 'column', column: active.column };
    return { kind: 'beside' };
  }
  const columns = groups.map((group) => group.column).sort((a, b) => a - b);
  const activeColumn = active?.column ?? columns[0];
  const right = columns.find((column) => column > activeColumn);
  if (right !== undefined) return { kind: 'column', column: right };
  // The active group is the rightmost: a person's panel opens there, a server's in the group to its left.
  if (opener === 'person') return { kind: 'column', column: activeColumn };
  const left = [...columns].reverse().find((column) => column < activeColumn);
  return left !== undefined ? { kind: 'column', column: left } : { kind: 'beside' };
}
