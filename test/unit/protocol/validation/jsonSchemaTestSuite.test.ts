/**
 * The official JSON-Schema-Test-Suite against our validator (src/protocol/validation/), for draft 2020-12 and
 * draft-07: the required tests of each draft and the optional ecmascript-regex tests (the suite files are vendored
 * in test/fixtures/json-schema-test-suite/, see its README.md for the commit and how to refresh them). Each group's
 * schema is prepared once and every test's verdict must be the suite's: `valid` for a valid instance, `invalid` for
 * an invalid one (an `unchecked` verdict is wrong either way).
 *
 * A test whose verdict differs on purpose is listed, with the reason, in jsonSchemaTestSuite.deviations.json; its
 * verdict must still be the one its reason gives (an `unchecked` one saying why). A wrong verdict that is not
 * listed fails, and so does a listed test that now passes or that the suite no longer has, so the list stays exact.
 * The counts are printed: docs/json-schema-suite.md quotes them.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { SchemaValidator, type ValidationVerdict } from '../../../../src/protocol/validation/schemaValidation';
import { repoRoot } from '../../../support/paths';

const SUITE = join(repoRoot, 'test', 'fixtures', 'json-schema-test-suite', 'tests');

interface SuiteTest {
  description: string;
  data: unknown;
  valid: boolean;
}

interface SuiteGroup {
  description: string;
  schema: unknown;
  tests: SuiteTest[];
}

interface Reason {
  why: string;
  verdict: 'valid' | 'invalid' | 'unchecked';
  /** For an `unchecked` verdict: a phrase its reason contains. */
  says?: string;
}

interface Deviation {
  reason: string;
  file: string;
  group: string;
  tests: string[];
}

interface DeviationList {
  reasons: Record<string, Reason>;
  [draft: string]: Deviation[] | Record<string, Reason> | string;
}

const DEVIATIONS = JSON.parse(
  readFileSync(join(__dirname, 'jsonSchemaTestSuite.deviations.json'), 'utf8'),
) as DeviationList;

/** The suite's directories, and the `$schema` a draft-07 group's schema gets when it has none (2020-12 is the default). */
const DRAFTS = [
  { directory: 'draft2020-12', name: 'draft 2020-12', dialect: undefined },
  { directory: 'draft7', name: 'draft-07', dialect: 'http://json-schema.org/draft-07/schema#' },
] as const;

function key(file: string, group: string, description: string): string {
  return JSON.stringify([file, group, description]);
}

function deviationsOf(directory: string): Map<string, Reason & { name: string }> {
  const entries = DEVIATIONS[directory];
  assert.ok(Array.isArray(entries), `the deviation list has an entry for ${directory}`);
  const deviations = new Map<string, Reason & { name: string }>();
  for (const { reason, file, group, tests } of entries) {
    const known = DEVIATIONS.reasons[reason];
    assert.ok(known, `${directory}/${file} "${group}": unknown reason ${JSON.stringify(reason)}`);
    for (const description of tests) {
      const at = key(file, group, description);
      assert.ok(!deviations.has(at), `${directory}/${file} "${group}" / "${description}" is listed twice`);
      deviations.set(at, { ...known, name: reason });
    }
  }
  return deviations;
}

function verdictText(verdict: ValidationVerdict): string {
  if (verdict.kind === 'valid') return 'valid';
  if (verdict.kind === 'invalid') return `invalid (${verdict.errors.join('; ')})`;
  return `unchecked (${verdict.reason})`;
}

interface Tally {
  right: number;
  total: number;
  /** Wrong verdicts by reason. */
  deviations: Map<string, number>;
  problems: string[];
}

/** Runs the suite files `files` (paths under the draft's directory) and checks them against the deviation list. */
function run(
  directory: string,
  dialect: string | undefined,
  files: readonly string[],
  deviations: Map<string, Reason & { name: string }>,
  seen: Set<string>,
): Tally {
  const tally: Tally = { right: 0, total: 0, deviations: new Map(), problems: [] };
  for (const file of files) {
    const groups = JSON.parse(readFileSync(join(SUITE, directory, file), 'utf8')) as SuiteGroup[];
    for (const group of groups) {
      const raw = group.schema;
      const schema =
        dialect !== undefined && typeof raw === 'object' && raw !== null && !('$schema' in raw)
          ? { $schema: dialect, ...raw }
          : raw;
      // One validator per group: the schema is prepared once, as for a tool's schema.
      const validator = new SchemaValidator();
      for (const { description, data, valid } of group.tests) {
        tally.total++;
        const at = key(file, group.description, description);
        seen.add(at);
        const verdict = validator.validate(schema, data);
        const right = verdict.kind === (valid ? 'valid' : 'invalid');
        const where = `${directory}/${file} "${group.description}" / "${description}"`;
        const deviation = deviations.get(at);
        if (right) {
          tally.right++;
          if (deviation)
            tally.problems.push(
              `${where} is listed as a deviation (${deviation.name}) but now passes: take it off the list`,
            );
          continue;
        }
        if (!deviation) {
          tally.problems.push(`${where}: expected ${valid ? 'valid' : 'invalid'}, got ${verdictText(verdict)}`);
          continue;
        }
        tally.deviations.set(deviation.name, (tally.deviations.get(deviation.name) ?? 0) + 1);
        const expected =
          verdict.kind === deviation.verdict &&
          (deviation.says === undefined || (verdict.kind === 'unchecked' && verdict.reason.includes(deviation.says)));
        if (!expected)
          tally.problems.push(
            `${where} is listed as a deviation (${deviation.name}: ${deviation.verdict}${deviation.says ? `, "${deviation.says}"` : ''}) but got ${verdictText(verdict)}`,
          );
      }
    }
  }
  return tally;
}

function summary(label: string, tally: Tally): string {
  const percent = ((100 * tally.right) / tally.total).toFixed(1);
  const reasons = [...tally.deviations].map(([reason, count]) => `${reason} ${count}`).join(', ');
  return `JSON-Schema-Test-Suite ${label}: ${tally.right}/${tally.total} right (${percent}%)${reasons ? `; listed deviations: ${reasons}` : ''}`;
}

describe('the official JSON-Schema-Test-Suite', () => {
  for (const { directory, name, dialect } of DRAFTS) {
    test(`${name}: required tests and the optional ecmascript-regex tests`, () => {
      const deviations = deviationsOf(directory);
      const seen = new Set<string>();
      const files = readdirSync(join(SUITE, directory))
        .filter((file) => file.endsWith('.json'))
        .sort();
      assert.ok(files.length > 30, `${directory} has its suite files`);
      const required = run(directory, dialect, files, deviations, seen);
      const regex = run(directory, dialect, ['optional/ecmascript-regex.json'], deviations, seen);
      console.log(summary(`${name}, required`, required));
      console.log(summary(`${name}, optional ecmascript-regex`, regex));
      const stale = [...deviations.keys()]
        .filter((at) => !seen.has(at))
        .map((at) => `${directory}: the listed deviation ${at} is not in the suite`);
      const problems = [...required.problems, ...regex.problems, ...stale];
      assert.deepEqual(
        problems,
        [],
        `${problems.length} verdicts differ from the suite and from the deviation list:\n${problems.join('\n')}`,
      );
    });
  }
});
