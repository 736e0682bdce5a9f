/**
 * A tiny test framework for suites that run inside the VS Code extension host (node:test is not
 * available there in a useful way). Tests run one after another, each bounded by a timeout; a
 * failure is recorded and the next test runs. `after` hooks always run.
 *
 * Suites never import 'vscode' as a value: the host's API object is handed to them (`run(vscode)`),
 * which works the same under the code-server runner extension and under @vscode/test-electron.
 */
import type * as vscodeTypes from 'vscode';
import { pollUntil } from '../../support/wait';

export type VscodeApi = typeof vscodeTypes;

export interface SuiteFailure {
  name: string;
  error: string;
}

/** What a suite bundle's `run(vscode)` resolves to (the runner extension writes it as JSON). */
export interface SuiteResult {
  passed: string[];
  failed: SuiteFailure[];
}

type Body = () => unknown;

interface TestCase {
  name: string;
  body: Body;
  timeoutMs: number;
}

const DEFAULT_TEST_TIMEOUT_MS = 60_000;

export class Suite {
  private readonly tests: TestCase[] = [];
  private readonly beforeHooks: { body: Body; timeoutMs: number }[] = [];
  private readonly afterHooks: { body: Body; timeoutMs: number }[] = [];

  constructor(readonly name: string) {}

  test(name: string, body: Body, options: { timeoutMs?: number } = {}): void {
    this.tests.push({ name: `${this.name}: ${name}`, body, timeoutMs: options.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS });
  }

  /**
   * Runs before the suite's tests (the state they need): set-up is a hook, not a test, so its failure is reported
   * once as the set-up's and the tests that need it do not run (and do not fail one after another); the after
   * hooks still do.
   */
  before(body: Body, options: { timeoutMs?: number } = {}): void {
    this.beforeHooks.push({ body, timeoutMs: options.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS });
  }

  /** Runs after the suite's tests, whatever their outcome (cleanup). A failing hook is reported as a failure. */
  after(body: Body): void {
    this.afterHooks.push({ body, timeoutMs: DEFAULT_TEST_TIMEOUT_MS });
  }

  async run(result: SuiteResult, log: (line: string) => void): Promise<void> {
    const ready = await this.runHooks('before', this.beforeHooks, result, log);
    for (const test of ready ? this.tests : []) {
      const started = Date.now();
      try {
        await bounded(test.body, test.timeoutMs, `timed out after ${test.timeoutMs} ms`);
        result.passed.push(test.name);
        log(`ok   ${test.name} (${Date.now() - started} ms)`);
      } catch (error) {
        result.failed.push({ name: test.name, error: describe(error) });
        log(`FAIL ${test.name} (${Date.now() - started} ms): ${firstLine(describe(error))}`);
      }
    }
    await this.runHooks('after', this.afterHooks, result, log);
  }

  /** Runs every hook (bounded); records each failure. True when all passed. */
  private async runHooks(
    kind: 'before' | 'after',
    hooks: readonly { body: Body; timeoutMs: number }[],
    result: SuiteResult,
    log: (line: string) => void,
  ): Promise<boolean> {
    let passed = true;
    for (const [index, hook] of hooks.entries()) {
      try {
        await bounded(hook.body, hook.timeoutMs, `${kind} hook timed out after ${hook.timeoutMs} ms`);
      } catch (error) {
        passed = false;
        const name = `${this.name}: ${kind} hook #${index + 1}`;
        result.failed.push({ name, error: describe(error) });
        log(`FAIL ${name}: ${firstLine(describe(error))}`);
      }
    }
    return passed;
  }
}

/** Runs the suites in order and collects every test's outcome. */
export async function runSuites(
  suites: readonly Suite[],
  log: (line: string) => void = (line) => console.log(`[integration] ${line}`),
): Promise<SuiteResult> {
  const result: SuiteResult = { passed: [], failed: [] };
  for (const suite of suites) await suite.run(result, log);
  return result;
}

/** Polls `probe` until it returns something other than undefined; rejects after `timeoutMs` naming `what`. */
export function waitUntil<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  return pollUntil(what, probe, timeoutMs, 100);
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

export function assertEqual<T>(actual: T, expected: T, what: string): void {
  if (actual !== expected)
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

async function bounded(body: Body, timeoutMs: number, message: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), timeoutMs);
  });
  try {
    await Promise.race([Promise.resolve().then(body), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}
