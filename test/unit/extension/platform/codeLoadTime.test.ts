import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { codeLoadMs } from '../../../../src/extension/platform/codeLoadTime';

const holder = globalThis as { MonacoPerformanceMarks?: unknown };
afterEach(() => delete holder.MonacoPerformanceMarks);

const marks = (...entries: [string, number][]) => ({
  getMarks: () => entries.map(([name, startTime]) => ({ name, startTime })),
});

test("the extension's load time is the span of VS Code's marks around loading its code, for this extension only", () => {
  holder.MonacoPerformanceMarks = marks(
    ['code/extHost/willLoadExtensionCode/other.extension', 900],
    ['code/extHost/willLoadExtensionCode/mcp-workbench.mcp-workbench', 1000],
    ['code/extHost/didLoadExtensionCode/other.extension', 1003],
    ['code/extHost/didLoadExtensionCode/mcp-workbench.mcp-workbench', 1042],
  );
  assert.equal(codeLoadMs('mcp-workbench.mcp-workbench'), 42);
});

test('no marks, or only one of the two, is no figure (not a wrong one)', () => {
  assert.equal(codeLoadMs('mcp-workbench.mcp-workbench'), undefined);
  holder.MonacoPerformanceMarks = marks(['code/extHost/willLoadExtensionCode/mcp-workbench.mcp-workbench', 1000]);
  assert.equal(codeLoadMs('mcp-workbench.mcp-workbench'), undefined);
});
