/** Command-line parsing for the headless client. Kept free of any framework so errors stay precise. */

import { ERA_NAMES, eraPreferenceFromName, type EraPreference } from '../protocol/eras/names';
import { DEFAULT_INPUT_LIMITS, type InputLimits } from '../protocol/limits/inputLimits';
import { isObject } from '../protocol/guards';
import { FROM_CLIENTS, type FromClient } from '../workbench/node/configSources';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface ParsedArgs {
  subcommand: string;
  positionals: string[];
  stdio?: string;
  url?: string;
  transport?: 'auto' | 'streamable-http' | 'sse';
  /** Protocol era: auto (2026-07-28 first, then the initialize handshake), 2026-07-28, or handshake (also written legacy). */
  era?: EraPreference;
  config?: string;
  /** `--from-client claude|cursor|…`: that client's config files (the home folder's and the current folder's). */
  fromClient?: FromClient;
  server?: string;
  timeoutMs?: number;
  /** Bounds one OAuth sign-in (the person's time at the authorization server); --timeout does not. */
  signInTimeoutMs?: number;
  /** How long a stdio server gets to exit after stdin closes, and again after SIGTERM. */
  shutdownGraceMs?: number;
  headers: Record<string, string>;
  inputs: Record<string, string>;
  env: Record<string, string>;
  cwd?: string;
  verbose: boolean;
  help: boolean;
  /** OAuth: where tokens are cached, a pre-registered client, and whether a browser may be opened. */
  authDir?: string;
  clientId?: string;
  clientSecret?: string;
  noBrowser: boolean;
  /** `registry` subcommand: the registry's URL, the version, the key to add under, and which package or remote. */
  registry?: string;
  version?: string;
  as?: string;
  via?: string;
  /** `call`: print the task instead of waiting for it, and ask for a task where the tool offers one optionally. */
  noWait: boolean;
  asTask: boolean;
  /** --limit name=value (repeatable): the input limits (InputLimits) this run reads untrusted bytes with. */
  limits: Partial<InputLimits>;
  /** `session --record <file>`: also write the session as a recording (src/cli/recordings.ts). */
  record?: string;
}

const VALUE_FLAGS = new Set([
  '--stdio',
  '--url',
  '--config',
  '--from-client',
  '--server',
  '--timeout',
  '--sign-in-timeout',
  '--header',
  '--input',
  '--env',
  '--cwd',
  '--transport',
  '--shutdown-grace',
  '--era',
  '--auth-dir',
  '--client-id',
  '--client-secret',
  '--registry',
  '--version',
  '--as',
  '--via',
  '--limit',
  '--record',
]);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const result: ParsedArgs = {
    subcommand: '',
    positionals: [],
    headers: {},
    inputs: {},
    env: {},
    verbose: false,
    help: false,
    noBrowser: false,
    noWait: false,
    asTask: false,
    limits: {},
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      result.help = true;
      continue;
    }
    if (arg === '--no-browser') {
      result.noBrowser = true;
      continue;
    }
    if (arg === '--no-wait' || arg === '--task') {
      result[arg === '--task' ? 'asTask' : 'noWait'] = true;
      continue;
    }
    if (arg === '--verbose' || arg === '-v') {
      result.verbose = true;
      continue;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const flag = eq === -1 ? arg : arg.slice(0, eq);
      if (!VALUE_FLAGS.has(flag)) throw new UsageError(`unknown option ${flag}`);
      let value: string;
      if (eq !== -1) value = arg.slice(eq + 1);
      else {
        if (i + 1 >= argv.length) throw new UsageError(`${flag} needs a value`);
        value = argv[++i];
      }
      applyFlag(result, flag, value);
      continue;
    }
    if (!result.subcommand) result.subcommand = arg;
    else result.positionals.push(arg);
  }
  return result;
}

function applyFlag(result: ParsedArgs, flag: string, value: string): void {
  switch (flag) {
    case '--stdio':
      result.stdio = value;
      return;
    case '--url':
      result.url = value;
      return;
    case '--config':
      result.config = value;
      return;
    case '--from-client':
      if (!(FROM_CLIENTS as readonly string[]).includes(value))
        throw new UsageError(`--from-client must be one of ${FROM_CLIENTS.join(', ')}, got ${JSON.stringify(value)}`);
      result.fromClient = value as FromClient;
      return;
    case '--server':
      result.server = value;
      return;
    case '--cwd':
      result.cwd = value;
      return;
    case '--registry':
    case '--version':
    case '--as':
    case '--via':
      if (!value) throw new UsageError(`${flag} needs a value`);
      result[flag.slice(2) as 'registry' | 'version' | 'as' | 'via'] = value;
      return;
    case '--record':
      if (!value) throw new UsageError('--record needs a file name');
      result.record = value;
      return;
    case '--auth-dir':
      result.authDir = value;
      return;
    case '--client-id':
      if (!value) throw new UsageError('--client-id needs a value');
      result.clientId = value;
      return;
    case '--client-secret':
      if (!value) throw new UsageError('--client-secret needs a value');
      result.clientSecret = value;
      return;
    case '--transport':
      if (value !== 'auto' && value !== 'streamable-http' && value !== 'sse')
        throw new UsageError('--transport must be auto, streamable-http or sse');
      result.transport = value;
      return;
    case '--era':
      result.era = eraPreferenceFromName(value);
      if (result.era === undefined)
        throw new UsageError(`--era must be ${ERA_NAMES.join(', ')} (legacy is the same as handshake), got ${value}`);
      return;
    case '--timeout': {
      const ms = Number(value);
      if (!Number.isInteger(ms) || ms <= 0)
        throw new UsageError(`--timeout needs a positive number of milliseconds, got ${value}`);
      result.timeoutMs = ms;
      return;
    }
    case '--sign-in-timeout': {
      const ms = Number(value);
      if (!Number.isInteger(ms) || ms <= 0)
        throw new UsageError(`--sign-in-timeout needs a positive number of milliseconds, got ${value}`);
      result.signInTimeoutMs = ms;
      return;
    }
    case '--shutdown-grace': {
      const ms = Number(value);
      if (!Number.isInteger(ms) || ms < 0)
        throw new UsageError(`--shutdown-grace needs a number of milliseconds, got ${value}`);
      result.shutdownGraceMs = ms;
      return;
    }
    case '--header':
    case '--input':
    case '--env': {
      const sep = flag === '--header' ? value.indexOf(':') : value.indexOf('=');
      if (sep <= 0)
        throw new UsageError(`${flag} expects ${flag === '--header' ? 'Name: value' : 'name=value'}, got ${value}`);
      const key = value.slice(0, sep).trim();
      const val = value.slice(sep + 1).trim();
      const target = flag === '--header' ? result.headers : flag === '--input' ? result.inputs : result.env;
      target[key] = val;
      return;
    }
    case '--limit':
      applyLimitFlag(result.limits, value);
      return;
    default:
      throw new UsageError(`unknown option ${flag}`);
  }
}

/** The names --limit accepts: the InputLimits keys, e.g. `--limit maxMessageBytes=16M`. */
const LIMIT_NAMES = Object.keys(DEFAULT_INPUT_LIMITS) as (keyof InputLimits)[];
const LIMIT_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** `name=value`: a byte count, optionally with a binary unit (16k, 8M, 1G). */
function applyLimitFlag(limits: Partial<InputLimits>, text: string): void {
  const eq = text.indexOf('=');
  const name = (eq === -1 ? text : text.slice(0, eq)).trim();
  if (!(LIMIT_NAMES as string[]).includes(name))
    throw new UsageError(`--limit expects one of ${LIMIT_NAMES.join(', ')} as name=bytes, got ${text}`);
  const match = /^(\d+)\s*([kmg]?)i?b?$/i.exec(eq === -1 ? '' : text.slice(eq + 1).trim());
  const bytes = match ? Number(match[1]) * LIMIT_UNITS[match[2].toLowerCase()] : NaN;
  if (!Number.isSafeInteger(bytes) || bytes <= 0)
    throw new UsageError(
      `--limit ${name} needs a positive number of bytes (e.g. 1048576 or 16M), got ${text.slice(eq + 1)}`,
    );
  limits[name as keyof InputLimits] = bytes;
}

export function parseJsonObjectArgument(text: string | undefined, what: string): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} must be a JSON object: ${(error as Error).message}`);
  }
  if (!isObject(value)) throw new UsageError(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}
