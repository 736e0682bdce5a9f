import { jsonPreview } from '../display';
import { compareAnswers, type Difference } from '../recordings/compare';
import type { LoadedCall, LoadedRequest } from './format';

/**
 * Grades one run of a request: the calls the model made (in order) and its final answer against what the eval
 * expects. A failure says what was expected and what came, as a diff a person can read in a terminal.
 */

/** One tool call the model made, by the server's tool name. */
export interface MadeCall {
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
}

export type Problem =
  | {
      kind: 'missing-call';
      message: string;
      expected: ExpectedCallView;
      closest?: MadeCall;
      differences?: Difference[];
    }
  | { kind: 'forbidden-call'; message: string; actual: MadeCall }
  | { kind: 'answer'; message: string }
  | { kind: 'step-cap'; message: string }
  | { kind: 'unknown-tool'; message: string };

interface ExpectedCallView {
  tool: string;
  server?: string;
  args?: Record<string, unknown>;
}

/** At most this many argument differences are listed per expected call. */
const MAX_DIFFERENCES = 10;
const PREVIEW_CHARS = 200;

export function gradeRun(
  request: LoadedRequest,
  calls: readonly MadeCall[],
  answer: string | undefined,
  multipleServers: boolean,
): Problem[] {
  const problems: Problem[] = [];
  let from = 0;
  for (const expected of request.calls) {
    const index = calls.findIndex(
      (call, position) => position >= from && sameTool(expected, call) && argumentsMatch(expected, call),
    );
    if (index !== -1) {
      from = index + 1;
      continue;
    }
    problems.push(missingCall(expected, calls, from, multipleServers));
  }
  for (const call of calls) {
    if (request.notCalled.includes(call.tool))
      problems.push({
        kind: 'forbidden-call',
        message: `called ${describeCall(call, multipleServers)}, which must not be called (it was not run)`,
        actual: call,
      });
  }
  if (request.answer && answer !== undefined && !request.answer.test(answer)) {
    const wanted =
      'contains' in request.answer
        ? `containing ${JSON.stringify(request.answer.contains)}`
        : `matching ${JSON.stringify(request.answer.match)}`;
    problems.push({
      kind: 'answer',
      message: `expected a final answer ${wanted}\n  actual answer: ${jsonPreview(answer, PREVIEW_CHARS)}`,
    });
  }
  return problems;
}

function sameTool(expected: LoadedCall, call: MadeCall): boolean {
  return call.tool === expected.tool && (expected.server === undefined || expected.server === call.server);
}

function argumentsMatch(expected: LoadedCall, call: MadeCall): boolean {
  return (
    expected.args === undefined || compareAnswers(expected.args, call.arguments, expected.compiledRules, 1).length === 0
  );
}

/** Names the expected call and, when the model called that tool otherwise, the closest call with its differences. */
function missingCall(
  expected: LoadedCall,
  calls: readonly MadeCall[],
  from: number,
  multipleServers: boolean,
): Problem {
  const view: ExpectedCallView = {
    tool: expected.tool,
    ...(expected.server === undefined ? {} : { server: expected.server }),
    ...(expected.args === undefined ? {} : { args: expected.args }),
  };
  const expectedLine = `expected call: ${expected.server && multipleServers ? `${expected.server}/` : ''}${expected.tool} ${expected.args === undefined ? '(any arguments)' : jsonPreview(expected.args, PREVIEW_CHARS)}`;
  const sameName = calls.filter((call, position) => position >= from && sameTool(expected, call));
  if (sameName.length === 0) {
    const earlier = calls.some((call, position) => position < from && sameTool(expected, call));
    const made =
      calls.length === 0
        ? 'the model called no tool'
        : `calls made: ${calls.map((call) => describeCall(call, multipleServers)).join(', ')}`;
    return {
      kind: 'missing-call',
      message: `${expectedLine}\n  ${earlier ? 'it was called only before the call expected first; ' : ''}${made}`,
      expected: view,
    };
  }
  // The call of that tool whose arguments differ least is the one a person compares with.
  let closest = sameName[0];
  let differences = compareAnswers(expected.args, closest.arguments, expected.compiledRules, MAX_DIFFERENCES);
  for (const call of sameName.slice(1)) {
    const candidate = compareAnswers(expected.args, call.arguments, expected.compiledRules, MAX_DIFFERENCES);
    if (candidate.length < differences.length) {
      closest = call;
      differences = candidate;
    }
  }
  const lines = differences.map(
    (difference) =>
      `    ${difference.path}: expected ${difference.expected}, got ${difference.actual} (${difference.reason})`,
  );
  return {
    kind: 'missing-call',
    message: [expectedLine, `  actual call:   ${describeCall(closest, multipleServers)}`, ...lines].join('\n'),
    expected: view,
    closest,
    differences,
  };
}

export function describeCall(call: MadeCall, multipleServers: boolean): string {
  return `${multipleServers ? `${call.server}/` : ''}${call.tool} ${jsonPreview(call.arguments, PREVIEW_CHARS)}`;
}
