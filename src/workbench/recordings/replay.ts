import type { McpClient } from '../../protocol/client';
import { toJsonText } from '../display';
import { maskSecrets } from '../secrets';
import { compareAnswers, type Difference } from './compare';
import { stepLabel, type LoadedRecording } from './format';
import { performStep, type StepAnswer } from './stepMethods';

/**
 * Replays a recording against a connected client: every step is asked again in order (a stateful server sees the
 * same sequence), its answer masked with the secrets the host knows (as the recording was), and compared with the
 * recorded answer under the step's rules. All steps run, so Test Explorer can show each; the first failing step
 * is what the CLI names.
 */

type StepVerdict = { kind: 'passed' } | { kind: 'failed'; differences: Difference[] };

export interface StepReport {
  index: number;
  label: string;
  /** The answer that came (masked, JSON-normalized): what "re-record" writes into the file. */
  actual: StepAnswer;
  verdict: StepVerdict;
}

export interface ReplayReport {
  steps: StepReport[];
  /** The index of the first step that did not answer as recorded. */
  firstFailure?: number;
}

interface ReplayOptions {
  secrets?: readonly string[];
  /** Called as each step is judged (Test Explorer marks the step at once). */
  onStep?: (report: StepReport) => void;
  /** Which steps to judge (all by default); earlier steps still run, since a later one may depend on them. */
  only?: ReadonlySet<number>;
  /** Stops before the next step when aborted (a cancelled test run). */
  signal?: AbortSignal;
}

export async function replayRecording(
  client: McpClient,
  loaded: LoadedRecording,
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  const steps: StepReport[] = [];
  const { recording } = loaded;
  const last = options.only ? Math.max(-1, ...options.only) : recording.steps.length - 1;
  for (let index = 0; index <= last; index++) {
    if (options.signal?.aborted) break;
    const step = recording.steps[index];
    const actual = normalizeAnswer(
      await performStep(client, step.request.method, step.request.params, options.signal),
      options.secrets ?? [],
    );
    if (options.only && !options.only.has(index)) continue;
    const differences = compareAnswers(step.answer, actual, loaded.rulesOf(index));
    const report: StepReport = {
      index,
      label: stepLabel(step),
      actual,
      verdict: differences.length === 0 ? { kind: 'passed' } : { kind: 'failed', differences },
    };
    steps.push(report);
    options.onStep?.(report);
  }
  const firstFailure = steps.find((report) => report.verdict.kind === 'failed')?.index;
  return { steps, ...(firstFailure === undefined ? {} : { firstFailure }) };
}

/**
 * The answer as it would be written into a file: secrets masked, and through JSON once, so `undefined` members
 * vanish and the comparison sees what a recording would hold.
 */
export function normalizeAnswer(answer: StepAnswer, secrets: readonly string[]): StepAnswer {
  const text = toJsonText(maskSecrets(answer, secrets));
  return text === undefined ? answer : (JSON.parse(text) as StepAnswer);
}

/** One line about a failed step: `step 2 (tools/call echo) differs at $.result…: expected "a", got "b"`. */
export function describeFailure(report: StepReport): string {
  if (report.verdict.kind !== 'failed') return `step ${report.index + 1} (${report.label}) answered as recorded`;
  const [first] = report.verdict.differences;
  const more =
    report.verdict.differences.length > 1
      ? ` (and ${report.verdict.differences.length - 1} more difference${report.verdict.differences.length > 2 ? 's' : ''})`
      : '';
  return `step ${report.index + 1} (${report.label}) differs at ${first.path}: ${first.reason}; expected ${first.expected}, got ${first.actual}${more}`;
}
