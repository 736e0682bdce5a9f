import { compileLinearPattern } from '../../protocol/validation/linearRegExp';
import { PathSyntaxError, parsePathPattern, type PathPattern } from './jsonPath';
import { isObject } from '../../protocol/guards';

/**
 * The comparison rules of a recording, as written in the file and as compiled. A rule names a path (see jsonPath.ts)
 * and what to do with the value there instead of requiring it to be equal:
 *
 *   {"path": "$..timestamp", "ignore": true}                  anything (or nothing) may be there
 *   {"path": "$.result.content[0].text", "match": "^id-[0-9a-f]{8}$"}   a string the pattern matches
 *   {"path": "$.result.structuredContent.load", "tolerance": 0.05}   a number within ±0.05
 *   {"path": "$.result.tools", "unordered": true}             the same items in any order
 *
 * Patterns run on the linear-time engine the schema validation uses: a recording may come from anywhere (a
 * cloned repository), and a pattern in it must not be able to stall the test run.
 */
export type RuleSpec =
  | { path: string; ignore: true }
  | { path: string; match: string }
  | { path: string; tolerance: number }
  | { path: string; unordered: true };

export type CompiledRule =
  | { kind: 'ignore'; path: PathPattern }
  | { kind: 'match'; path: PathPattern; pattern: string; test(subject: string): boolean }
  | { kind: 'tolerance'; path: PathPattern; tolerance: number }
  | { kind: 'unordered'; path: PathPattern };

export class RuleError extends Error {
  override readonly name = 'RuleError';
}

const RULE_ACTIONS = ['ignore', 'match', 'tolerance', 'unordered'] as const;

/** Checks one rule as read from a file (`where` names it in messages, e.g. `steps[2].rules[0]`). */
export function compileRule(value: unknown, where: string): CompiledRule {
  if (!isObject(value))
    throw new RuleError(`${where} must be an object with "path" and one of ${RULE_ACTIONS.join(', ')}`);
  const record = value as Record<string, unknown>;
  if (typeof record.path !== 'string')
    throw new RuleError(`${where}.path must be a string such as "$.result.content[0].text"`);
  let path: PathPattern;
  try {
    path = parsePathPattern(record.path);
  } catch (error) {
    if (error instanceof PathSyntaxError) throw new RuleError(`${where}.path: ${error.message}`);
    throw error;
  }
  const actions = RULE_ACTIONS.filter((action) => record[action] !== undefined);
  if (actions.length !== 1)
    throw new RuleError(
      `${where} must have exactly one of ${RULE_ACTIONS.join(', ')}; it has ${actions.length === 0 ? 'none' : actions.join(' and ')}`,
    );
  const unknown = Object.keys(record).filter(
    (key) => key !== 'path' && key !== 'comment' && !(RULE_ACTIONS as readonly string[]).includes(key),
  );
  if (unknown.length > 0)
    throw new RuleError(
      `${where} has unknown ${unknown.length === 1 ? 'key' : 'keys'} ${unknown.map((key) => JSON.stringify(key)).join(', ')}`,
    );
  const action = actions[0];
  switch (action) {
    case 'ignore':
      if (record.ignore !== true) throw new RuleError(`${where}.ignore must be true`);
      return { kind: 'ignore', path };
    case 'unordered':
      if (record.unordered !== true) throw new RuleError(`${where}.unordered must be true`);
      return { kind: 'unordered', path };
    case 'tolerance': {
      const tolerance = record.tolerance;
      if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0)
        throw new RuleError(`${where}.tolerance must be a number of at least 0`);
      return { kind: 'tolerance', path, tolerance };
    }
    case 'match': {
      if (typeof record.match !== 'string')
        throw new RuleError(`${where}.match must be a regular expression as a string`);
      const compiled = compileLinearPattern(record.match);
      if (compiled.kind === 'unsupported')
        throw new RuleError(`${where}.match ${JSON.stringify(record.match)} cannot be used: ${compiled.reason}`);
      return { kind: 'match', path, pattern: record.match, test: compiled.test };
    }
    default: {
      const exhaustive: never = action;
      return exhaustive;
    }
  }
}

export function compileRules(value: unknown, where: string): CompiledRule[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new RuleError(`${where} must be an array of rules`);
  return value.map((rule, index) => compileRule(rule, `${where}[${index}]`));
}
