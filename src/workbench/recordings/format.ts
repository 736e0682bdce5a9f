import type { EraPreference } from '../../protocol/eras/names';
import { ERA_PREFERENCES } from '../../protocol/eras/names';
import { toJsonText } from '../display';
import { compileRules, RuleError, type CompiledRule, type RuleSpec } from './rules';
import { STEP_METHODS, type StepMethod } from './stepMethods';
import { checkEventsParams } from './eventsStepParams';
import { isObject } from '../../protocol/guards';

/**
 * A recorded session (`*.mcptest.json`, described by schemas/mcptest.schema.json): the server it ran against, and
 * each step's request (method and params) with the answer it got (result or error). Replaying it asks the same
 * questions and expects the same answers, except where a rule says otherwise.
 */

export const MCPTEST_FORMAT_VERSION = 1;

export { MCPTEST_SUFFIX } from './fileNames';

/** A recording larger than this is not read: it is a file of JSON answers, not a data set. */
export const MAX_RECORDING_BYTES = 64 * 1024 * 1024;

/**
 * The server, as the person named it. Env and header values are always written masked: they are where credentials
 * live. A replay takes each masked value from --env/--header or the environment variable of the same name.
 * Relative paths (`config`, `cwd`) are relative to the recording's own folder, so the file runs in CI from any
 * checkout.
 */
export type RecordedServer = (
  | { kind: 'stdio'; command: string; args: string[]; env?: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: string; headers?: Record<string, string>; transport?: 'auto' | 'streamable-http' | 'sse' }
  | { kind: 'config'; config: string; server: string }
) & {
  era?: EraPreference;
  /**
   * The server's name where it was recorded; VS Code runs the configured server of this name (which one, and when it
   * asks first: binding.ts).
   */
  name?: string;
};

interface RecordedRequest {
  method: StepMethod;
  params: Record<string, unknown>;
}

/** What the server answered: its result, or an error (a JSON-RPC error has `code`; a local one a `kind`). */
type RecordedAnswer = { result: unknown } | { error: RecordedError };

interface RecordedError {
  code?: number;
  kind?: string;
  message: string;
  data?: unknown;
}

export interface RecordedStep {
  /** Shown in Test Explorer and in failures; defaults to the method and its subject. */
  name?: string;
  request: RecordedRequest;
  answer: RecordedAnswer;
  rules?: RuleSpec[];
}

export interface Recording {
  $schema?: string;
  mcptest: typeof MCPTEST_FORMAT_VERSION;
  server: RecordedServer;
  /** Rules for every step; a step's own rules add to them. */
  rules?: RuleSpec[];
  steps: RecordedStep[];
}

/** A recording checked and with its rules compiled. */
export interface LoadedRecording {
  recording: Recording;
  rulesOf(stepIndex: number): readonly CompiledRule[];
}

export class RecordingFormatError extends Error {
  override readonly name = 'RecordingFormatError';
}

/** Parses and checks a recording; errors name the file and the place in it. */
export function parseRecording(text: string, file: string): LoadedRecording {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RecordingFormatError(`${file} is not JSON: ${(error as Error).message}`);
  }
  try {
    return checkRecording(value);
  } catch (error) {
    if (error instanceof RecordingFormatError || error instanceof RuleError)
      throw new RecordingFormatError(`${file}: ${error.message}`);
    throw error;
  }
}

function checkRecording(value: unknown): LoadedRecording {
  const root = object(value, 'the file');
  if (root.mcptest !== MCPTEST_FORMAT_VERSION) {
    throw new RecordingFormatError(
      `"mcptest" must be ${MCPTEST_FORMAT_VERSION} (the format version this client reads), got ${JSON.stringify(root.mcptest)}`,
    );
  }
  const server = checkServer(root.server);
  const shared = compileRules(root.rules, 'rules');
  if (!Array.isArray(root.steps)) throw new RecordingFormatError('"steps" must be an array');
  const steps = root.steps.map((step, index) => checkStep(step, `steps[${index}]`));
  const perStep = steps.map((step, index) => [...shared, ...compileRules(step.rules, `steps[${index}].rules`)]);
  const recording: Recording = {
    ...(typeof root.$schema === 'string' ? { $schema: root.$schema } : {}),
    mcptest: MCPTEST_FORMAT_VERSION,
    server,
    ...(root.rules ? { rules: root.rules as RuleSpec[] } : {}),
    steps,
  };
  return { recording, rulesOf: (index) => perStep[index] ?? shared };
}

function checkServer(value: unknown): RecordedServer {
  const server = object(value, '"server"');
  const era = server.era;
  if (era !== undefined && !(ERA_PREFERENCES as readonly unknown[]).includes(era))
    throw new RecordingFormatError(`server.era must be one of ${ERA_PREFERENCES.join(', ')}`);
  if (server.name !== undefined && typeof server.name !== 'string')
    throw new RecordingFormatError('server.name must be a string');
  const eraPart = {
    ...(era === undefined ? {} : { era: era as EraPreference }),
    ...(typeof server.name === 'string' ? { name: server.name } : {}),
  };
  switch (server.kind) {
    case 'stdio': {
      const args = server.args ?? [];
      if (typeof server.command !== 'string' || server.command === '')
        throw new RecordingFormatError('server.command must be a non-empty string');
      if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string'))
        throw new RecordingFormatError('server.args must be an array of strings');
      return {
        kind: 'stdio',
        command: server.command,
        args,
        ...optionalStrings(server, 'env'),
        ...optionalString(server, 'cwd'),
        ...eraPart,
      };
    }
    case 'http': {
      if (typeof server.url !== 'string') throw new RecordingFormatError('server.url must be a string');
      const transport = server.transport;
      if (transport !== undefined && transport !== 'auto' && transport !== 'streamable-http' && transport !== 'sse')
        throw new RecordingFormatError('server.transport must be auto, streamable-http or sse');
      return {
        kind: 'http',
        url: server.url,
        ...optionalStrings(server, 'headers'),
        ...(transport === undefined ? {} : { transport }),
        ...eraPart,
      };
    }
    case 'config':
      if (typeof server.config !== 'string' || typeof server.server !== 'string')
        throw new RecordingFormatError(
          'a "config" server needs "config" (the mcp.json path) and "server" (its name there)',
        );
      return { kind: 'config', config: server.config, server: server.server, ...eraPart };
    default:
      throw new RecordingFormatError(`server.kind must be stdio, http or config, got ${JSON.stringify(server.kind)}`);
  }
}

function checkStep(value: unknown, where: string): RecordedStep {
  const step = object(value, where);
  const request = object(step.request, `${where}.request`);
  if (typeof request.method !== 'string' || !(STEP_METHODS as readonly string[]).includes(request.method)) {
    throw new RecordingFormatError(
      `${where}.request.method must be one of ${STEP_METHODS.join(', ')}, got ${JSON.stringify(request.method)}`,
    );
  }
  const params = request.params === undefined ? {} : object(request.params, `${where}.request.params`);
  if (request.method === 'events/subscribe') {
    // Checked as the file is read: a subscription without a bound would wait for ever.
    const checked = checkEventsParams(params);
    if ('problem' in checked) throw new RecordingFormatError(`${where}: events/subscribe ${checked.problem}`);
  }
  const answer = object(step.answer, `${where}.answer`);
  const hasResult = Object.prototype.hasOwnProperty.call(answer, 'result');
  if (hasResult === (answer.error !== undefined))
    throw new RecordingFormatError(`${where}.answer must have exactly one of "result" and "error"`);
  let checkedAnswer: RecordedAnswer;
  if (hasResult) checkedAnswer = { result: answer.result };
  else {
    const error = object(answer.error, `${where}.answer.error`);
    if (typeof error.message !== 'string')
      throw new RecordingFormatError(`${where}.answer.error.message must be a string`);
    if (error.code !== undefined && !Number.isInteger(error.code))
      throw new RecordingFormatError(`${where}.answer.error.code must be an integer`);
    checkedAnswer = { error: error as unknown as RecordedError };
  }
  if (step.name !== undefined && typeof step.name !== 'string')
    throw new RecordingFormatError(`${where}.name must be a string`);
  return {
    ...(typeof step.name === 'string' ? { name: step.name } : {}),
    request: { method: request.method as StepMethod, params },
    answer: checkedAnswer,
    ...(step.rules === undefined ? {} : { rules: step.rules as RuleSpec[] }),
  };
}

function object(value: unknown, what: string): Record<string, unknown> {
  if (!isObject(value)) throw new RecordingFormatError(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

function optionalString(record: Record<string, unknown>, key: 'cwd'): { cwd?: string } {
  if (record[key] === undefined) return {};
  if (typeof record[key] !== 'string') throw new RecordingFormatError(`server.${key} must be a string`);
  return { [key]: record[key] };
}

function optionalStrings<K extends 'env' | 'headers'>(
  record: Record<string, unknown>,
  key: K,
): Partial<Record<K, Record<string, string>>> {
  if (record[key] === undefined) return {};
  const values = object(record[key], `server.${key}`);
  if (!Object.values(values).every((item) => typeof item === 'string'))
    throw new RecordingFormatError(`server.${key} values must be strings`);
  return { [key]: values } as Partial<Record<K, Record<string, string>>>;
}

/** The file's text: two-space JSON with a final newline, so recordings diff well in review. */
export function serializeRecording(recording: Recording): string {
  return `${toJsonText(recording, 2) ?? '{}'}\n`;
}

/** A step's display name: its own, else the method and what it is about (`tools/call echo`). */
export function stepLabel(step: RecordedStep): string {
  if (step.name) return step.name;
  const params = step.request.params;
  const subject =
    typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  return `${step.request.method}${subject === undefined ? '' : ` ${subject}`}`;
}
