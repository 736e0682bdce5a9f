/** Where our panels open (src/extension/platform/webviews/panelPlacement.ts, vscode-free): one side group, never a third column. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { placePanel, type GroupState } from '../../../../../src/extension/platform/webviews/panelPlacement';

const groups = (active: number, ...columns: number[]): GroupState[] =>
  columns.map((column) => ({ column, active: column === active, empty: false }));

test('the first panel opens beside the editor; an empty editor area is used as it is', () => {
  assert.deepEqual(placePanel(groups(1, 1), undefined, 'person'), { kind: 'beside' });
  assert.deepEqual(placePanel(groups(1, 1), undefined, 'server'), { kind: 'beside' });
  assert.deepEqual(placePanel([{ column: 1, active: true, empty: true }], undefined, 'person'), {
    kind: 'column',
    column: 1,
  });
});

test('the trial: a form focused in the side group, then the review panel and a result tab open in existing groups', () => {
  // Editor in 1, the form in 2 and focused: VS Code's Beside would have made a third column.
  assert.deepEqual(placePanel(groups(2, 1, 2), 2, 'person'), { kind: 'column', column: 2 });
  // A server's panel keeps out of the group the person types in, and out of a new one.
  assert.deepEqual(placePanel(groups(2, 1, 2), 2, 'server'), { kind: 'column', column: 1 });
  // The person back in the editor: both go to the side group.
  assert.deepEqual(placePanel(groups(1, 1, 2), 2, 'server'), { kind: 'column', column: 2 });
  assert.deepEqual(placePanel(groups(1, 1, 2), 2, 'person'), { kind: 'column', column: 2 });
});

test('the group our panels use wins over the neighbour; a closed one is forgotten', () => {
  assert.deepEqual(placePanel(groups(1, 1, 2, 3), 3, 'person'), { kind: 'column', column: 3 });
  assert.deepEqual(placePanel(groups(1, 1, 2), 3, 'person'), { kind: 'column', column: 2 });
  assert.deepEqual(placePanel(groups(1, 1), 2, 'person'), { kind: 'beside' });
});

test('no placement ever asks for a new group while two or more exist', () => {
  for (const count of [2, 3, 4]) {
    const columns = Array.from({ length: count }, (_, index) => index + 1);
    for (const active of columns) {
      for (const ours of [undefined, ...columns]) {
        for (const opener of ['person', 'server'] as const) {
          const placed = placePanel(groups(active, ...columns), ours, opener);
          assert.equal(placed.kind, 'column', `${count} groups, active ${active}, ours ${ours}, ${opener}`);
          if (placed.kind === 'column' && opener === 'server') assert.notEqual(placed.column, active);
        }
      }
    }
  }
});
