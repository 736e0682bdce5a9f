import { jsonPreview } from '../display';
import { advance, formatPath, isMatch, startState, type MatchState, type PathSegment } from './jsonPath';
import type { CompiledRule } from './rules';

/**
 * Compares the answer a step got with the one recorded, under the recording's rules. Everything not covered by a
 * rule must be equal: the same keys (a key the server added is a difference too), the same array lengths, the same
 * values. The walk is iterative, so an answer nested 100,000 levels deep (the server's answer is untrusted) is
 * compared without overflowing the stack.
 */

export interface Difference {
  /** Where, e.g. `$.result.content[0].text`. */
  path: string;
  /** The recorded value and the value that came, as short JSON previews (`(absent)` when there is none). */
  expected: string;
  actual: string;
  /** Why they differ, in words. */
  reason: string;
  /** The values themselves (absent when there is none), for a report in JSON that should not hold JSON in strings. */
  expectedValue?: unknown;
  actualValue?: unknown;
}

/** At most this many differences are listed per step; the first one is what a failing run names. */
const MAX_DIFFERENCES = 20;

/** An `unordered` array longer than this is compared in order: matching every pair would be quadratic. */
const MAX_UNORDERED_ITEMS = 1_000;

const PREVIEW_CHARS = 300;

/** A path segment list shared between nodes: a child points at its parent, so no path is copied per node. */
interface PathNode {
  readonly parent: PathNode | undefined;
  readonly segment: PathSegment;
}

type Presence = 'both' | 'absent-in-actual' | 'absent-in-expected';

interface Pending {
  expected: unknown;
  actual: unknown;
  presence: Presence;
  path: PathNode | undefined;
  /** Per rule, where its path pattern stands at this node. */
  states: readonly MatchState[];
}

export function compareAnswers(
  expected: unknown,
  actual: unknown,
  rules: readonly CompiledRule[],
  limit = MAX_DIFFERENCES,
): Difference[] {
  return walk(
    { expected, actual, presence: 'both', path: undefined, states: rules.map((rule) => startState(rule.path)) },
    rules,
    limit,
  );
}

function walk(root: Pending, rules: readonly CompiledRule[], limit: number): Difference[] {
  const differences: Difference[] = [];
  const stack: Pending[] = [root];
  const differ = (node: Pending, reason: string): void => {
    differences.push({
      path: formatPath(segmentsOf(node.path)),
      expected: node.presence === 'absent-in-expected' ? '(absent)' : jsonPreview(node.expected, PREVIEW_CHARS),
      actual: node.presence === 'absent-in-actual' ? '(absent)' : jsonPreview(node.actual, PREVIEW_CHARS),
      reason,
      ...(node.presence === 'absent-in-expected' ? {} : { expectedValue: node.expected }),
      ...(node.presence === 'absent-in-actual' ? {} : { actualValue: node.actual }),
    });
  };
  for (let node = stack.pop(); node !== undefined && differences.length < limit; node = stack.pop()) {
    const applying = rules.filter((rule, index) => isMatch(rule.path, node.states[index]));
    if (applying.some((rule) => rule.kind === 'ignore')) continue;
    if (node.presence === 'absent-in-actual') {
      differ(node, 'the recorded value is missing');
      continue;
    }
    if (node.presence === 'absent-in-expected') {
      differ(node, 'this value was not in the recording');
      continue;
    }
    const match = applying.find((rule) => rule.kind === 'match');
    if (match?.kind === 'match') {
      if (typeof node.actual !== 'string' || !match.test(node.actual))
        differ(node, `expected a string matching ${JSON.stringify(match.pattern)}`);
      continue;
    }
    const tolerance = applying.find((rule) => rule.kind === 'tolerance');
    if (tolerance?.kind === 'tolerance' && typeof node.expected === 'number') {
      if (typeof node.actual !== 'number' || Math.abs(node.actual - node.expected) > tolerance.tolerance)
        differ(node, `expected a number within ±${tolerance.tolerance} of the recorded one`);
      continue;
    }
    const expectedKind = kindOf(node.expected);
    const actualKind = kindOf(node.actual);
    if (expectedKind !== actualKind) {
      differ(node, `expected ${article(expectedKind)}, got ${article(actualKind)}`);
      continue;
    }
    if (expectedKind === 'array') {
      const expectedItems = node.expected as unknown[];
      const actualItems = node.actual as unknown[];
      if (
        applying.some((rule) => rule.kind === 'unordered') &&
        expectedItems.length <= MAX_UNORDERED_ITEMS &&
        actualItems.length <= MAX_UNORDERED_ITEMS
      ) {
        const unmatched = unorderedDifference(node, expectedItems, actualItems, rules);
        if (unmatched !== undefined) differ(node, unmatched);
        continue;
      }
      const children: Pending[] = [];
      for (let index = 0; index < Math.max(expectedItems.length, actualItems.length); index++) {
        children.push(child(node, index, expectedItems, actualItems, rules));
      }
      pushInOrder(stack, children);
      continue;
    }
    if (expectedKind === 'object') {
      const expectedObject = node.expected as Record<string, unknown>;
      const actualObject = node.actual as Record<string, unknown>;
      const keys = [
        ...Object.keys(expectedObject),
        ...Object.keys(actualObject).filter((key) => !Object.prototype.hasOwnProperty.call(expectedObject, key)),
      ];
      pushInOrder(
        stack,
        keys.map((key) => child(node, key, expectedObject, actualObject, rules)),
      );
      continue;
    }
    if (node.expected !== node.actual) differ(node, 'the value changed');
  }
  return differences;
}

function child(
  parent: Pending,
  segment: PathSegment,
  expected: object,
  actual: object,
  rules: readonly CompiledRule[],
): Pending {
  const has = (container: object): boolean =>
    Array.isArray(container)
      ? (segment as number) < container.length
      : Object.prototype.hasOwnProperty.call(container, segment);
  const inExpected = has(expected);
  const inActual = has(actual);
  return {
    expected: inExpected ? (expected as Record<PathSegment, unknown>)[segment] : undefined,
    actual: inActual ? (actual as Record<PathSegment, unknown>)[segment] : undefined,
    presence: inExpected && inActual ? 'both' : inExpected ? 'absent-in-actual' : 'absent-in-expected',
    path: { parent: parent.path, segment },
    states: rules.map((rule, index) => advance(rule.path, parent.states[index], segment)),
  };
}

/** Pushed last-first, so the first key or item is compared (and reported) first. */
function pushInOrder(stack: Pending[], children: Pending[]): void {
  for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]);
}

/** For an `unordered` array: undefined when every recorded item pairs with an equal item that came, else why not. */
function unorderedDifference(
  node: Pending,
  expectedItems: unknown[],
  actualItems: unknown[],
  rules: readonly CompiledRule[],
): string | undefined {
  if (expectedItems.length !== actualItems.length)
    return `expected ${expectedItems.length} items (in any order), got ${actualItems.length}`;
  const used = new Set<number>();
  for (let expectedIndex = 0; expectedIndex < expectedItems.length; expectedIndex++) {
    let paired = false;
    for (let actualIndex = 0; actualIndex < actualItems.length && !paired; actualIndex++) {
      if (used.has(actualIndex)) continue;
      const candidate: Pending = {
        expected: expectedItems[expectedIndex],
        actual: actualItems[actualIndex],
        presence: 'both',
        path: { parent: node.path, segment: actualIndex },
        states: rules.map((rule, index) => advance(rule.path, node.states[index], actualIndex)),
      };
      if (walk(candidate, rules, 1).length === 0) {
        used.add(actualIndex);
        paired = true;
      }
    }
    if (!paired)
      return `recorded item ${expectedIndex} (${jsonPreview(expectedItems[expectedIndex], PREVIEW_CHARS)}) has no equal item in the answer`;
  }
  return undefined;
}

type ValueKind = 'null' | 'array' | 'object' | 'string' | 'number' | 'boolean' | 'undefined';

function kindOf(value: unknown): ValueKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'object':
      return 'object';
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'undefined';
  }
}

function article(kind: ValueKind): string {
  switch (kind) {
    case 'null':
    case 'undefined':
      return kind;
    case 'array':
    case 'object':
      return `an ${kind}`;
    case 'string':
    case 'number':
    case 'boolean':
      return `a ${kind}`;
    default: {
      const exhaustive: never = kind;
      return exhaustive;
    }
  }
}

function segmentsOf(path: PathNode | undefined): PathSegment[] {
  const segments: PathSegment[] = [];
  for (let node = path; node !== undefined; node = node.parent) segments.push(node.segment);
  return segments.reverse();
}
