import { findNodeAtLocation, type Node } from 'jsonc-parser';
import { toJsonText } from '../../../workbench/display';
import type { MadeCall, Problem } from '../../../workbench/evals/grade';
import { escapeForDisplay, hasUnsafeCharacter } from '../../../workbench/urlPolicy';

// How an eval's requests and failures are shown in the Test Explorer (evalTests.ts).

/**
 * The two sides of a failed run's diff: the calls expected (those it missed) and the calls the model made (the
 * closest call of each missed tool when there is one, else every call; a forbidden call on the actual side alone).
 */
export function diffOf(problems: readonly Problem[], calls: readonly MadeCall[]): { expected: string; actual: string } {
  const expected: unknown[] = [];
  const actual: unknown[] = [];
  let closestOnly = true;
  for (const problem of problems) {
    switch (problem.kind) {
      case 'missing-call':
        expected.push({ tool: problem.expected.tool, arguments: problem.expected.args ?? '(any)' });
        if (problem.closest) actual.push({ tool: problem.closest.tool, arguments: problem.closest.arguments });
        else closestOnly = false;
        break;
      case 'forbidden-call':
        actual.push({ tool: problem.actual.tool, arguments: problem.actual.arguments });
        break;
      case 'answer':
      case 'step-cap':
      case 'unknown-tool':
        break;
      default: {
        const exhaustive: never = problem;
        throw new Error(`unknown problem ${String(exhaustive)}`);
      }
    }
  }
  const made = closestOnly ? actual : calls.map((call) => ({ tool: call.tool, arguments: call.arguments }));
  return { expected: shownLines(toJsonText(expected, 2) ?? ''), actual: shownLines(toJsonText(made, 2) ?? '') };
}

/**
 * A model's or server's text, several lines of it, as the Test Explorer shows it: a line with a control, bidirectional
 * or zero-width character is escaped (escapeForDisplay), the others are left as they are so JSON stays readable.
 */
export function shownLines(text: string): string {
  return text
    .split('\n')
    .map((line) => (hasUnsafeCharacter(line) ? escapeForDisplay(line) : line))
    .join('\n');
}

/** A request's name as the eval's report gives it: its `name`, else its request text (cut for the tree). */
export function requestLabel(node: Node, index: number): string {
  const name = findNodeAtLocation(node, ['name'])?.value;
  const request = findNodeAtLocation(node, ['request'])?.value;
  const label = typeof name === 'string' ? name : typeof request === 'string' ? request : '';
  const short = label.length > 80 ? `${label.slice(0, 79)}…` : label;
  return `${index + 1}. ${short}`;
}
