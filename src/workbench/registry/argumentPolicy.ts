/**
 * What a registry entry's arguments may do to the program that runs it. The registry browser and `registry add`
 * label an entry by its package (`npm @example/weather-mcp@1.2.0`), but the entry's `runtimeArguments` go to the
 * launcher before that package (`npx <runtime args> @example/weather-mcp@1.2.0 …`, `docker run -i --rm <runtime
 * args> image …`): an entry could name another package there (`--package=evil`), another source (`--from
 * git+http://…`), another entrypoint, root privileges or a host mount, and still be labelled "weather". Its
 * `packageArguments` go to the server, after the package, where the launcher no longer reads options; there the
 * one danger is a shell (or an interpreter's inline code). Its `environmentVariables` reach the launcher's own process (npx, uvx, the docker client),
 * where some names are configuration (`npm_config_registry`, `DOCKER_HOST`).
 *
 * Each runtime's options are read as that runtime reads them (`--flag=value`, `--flag value`, short clusters such
 * as `-it` or `-v/:/host`), and each one is:
 * - allowed: it cannot change which package runs, from where, as what or with which access to the host;
 * - unusual: nothing known makes it dangerous, but it is not on the runtime's list (every unknown option), so it is
 *   shown prominently before the entry is added;
 * - refused: the entry is not added, and the person is told which argument and why.
 * The rules are the tables below, one comment per rule saying why.
 */

import {
  ENVIRONMENT_RULES,
  RULES,
  always,
  asked,
  isLocalPath,
  isOtherSource,
  isShell,
  refused,
  runsInlineCode,
  unusual,
  type FlagRule,
  type Verdict,
} from './argumentRules';

/** The launcher the mapping runs a package with (mapping.ts `LAUNCHERS`), or `mcpb` for an unpacked bundle. */
export type Runtime = 'npx' | 'bunx' | 'pnpx' | 'uvx' | 'pipx' | 'docker' | 'podman' | 'dnx' | 'mcpb';

export type ArgumentVerdict = 'allowed' | 'unusual' | 'refused';

/** Why an argument is refused or shown; the extension words each kind in the person's language. */
export type ArgumentReason =
  | 'another-package'
  | 'another-source'
  | 'local-path'
  | 'insecure-download'
  | 'entrypoint'
  | 'shell'
  | 'privilege'
  | 'host-namespace'
  | 'device'
  | 'host-mount'
  | 'root-user'
  | 'code-injection'
  | 'runtime-config'
  | 'swallows-package'
  | 'asked-value'
  | 'other-program'
  | 'unknown-option'
  | 'flag-like-value'
  | 'unusual-option';

/** Where the argument is: before the package (the launcher's), after it (the server's), or an environment name. */
export type ArgumentPlace = 'runtime' | 'package' | 'environment';

export interface ArgumentFinding {
  verdict: 'unusual' | 'refused';
  place: ArgumentPlace;
  /** The argument as it would be written (a flag with its value, an environment variable's name). */
  argument: string;
  reason: ArgumentReason;
}

export interface ArgumentReview {
  runtime: Runtime;
  /** Every refused or unusual argument, in the order they appear; the allowed ones are not listed. */
  findings: ArgumentFinding[];
}

/** English words for each reason (the CLI's messages, the errors); the extension has its own translated ones. */
export const REASON_TEXT: Readonly<Record<ArgumentReason, string>> = {
  'another-package': 'selects another package than the one the entry is listed under',
  'another-source': 'makes the launcher fetch the package from another registry, index, repository or file',
  'local-path': 'names a file or folder on this computer, which changes what the launcher runs or reads',
  'insecure-download': 'turns off the verification of what is downloaded',
  entrypoint: 'replaces the program the container image runs',
  shell: "runs a shell command or an interpreter's inline code",
  privilege: 'gives the container privileges over the host',
  'host-namespace': "shares the host's (or another container's) network, processes or other namespaces",
  device: "gives the container the host's devices",
  'host-mount': 'mounts a folder or file of the host into the container',
  'root-user': 'runs the container as root',
  'code-injection': 'loads other code into the launcher',
  'runtime-config': 'configures the launcher itself (which registry, index, daemon or configuration it uses)',
  'swallows-package': 'takes the next word as its value, so the package name would be read as an option value',
  'asked-value': 'has a value asked for at first start, which decides what it does, so it cannot be checked now',
  'other-program': 'runs another program inside the container than the image names',
  'unknown-option': 'is not an option MCP Workbench knows for this launcher',
  'flag-like-value': 'has a value that looks like an option, which the launcher may read as one',
  'unusual-option': 'changes how the launcher runs the server',
};

/** "runtime argument --privileged: gives the container privileges over the host" (English, for the CLI). */
export function describeFinding(finding: ArgumentFinding): string {
  const what =
    finding.place === 'environment'
      ? 'environment variable'
      : finding.place === 'runtime'
        ? 'runtime argument'
        : 'package argument';
  return `${what} ${JSON.stringify(finding.argument)}: ${REASON_TEXT[finding.reason]}`;
}

export interface ReviewInput {
  runtime: Runtime;
  /** The launcher's arguments as the mapping writes them before the package (argv of `runtimeArguments`). */
  runtimeArgs: readonly string[];
  /** The server's arguments as written after the package (argv of `packageArguments`). */
  packageArgs: readonly string[];
  /** The names of the environment variables the entry sets. */
  environment: readonly string[];
}

/** Reviews every argument and environment name of one way to run a package. */
export function reviewArguments(input: ReviewInput): ArgumentReview {
  const findings: ArgumentFinding[] = [
    ...reviewRuntimeArgs(input.runtime, input.runtimeArgs),
    ...reviewPackageArgs(input.runtime, input.packageArgs),
  ];
  for (const name of input.environment) {
    const rule = ENVIRONMENT_RULES.find((candidate) => candidate.pattern.test(name));
    if (rule) findings.push({ verdict: 'refused', place: 'environment', argument: name, reason: rule.reason });
  }
  return { runtime: input.runtime, findings };
}

export function refusedFindings(review: ArgumentReview): ArgumentFinding[] {
  return review.findings.filter((finding) => finding.verdict === 'refused');
}

export function unusualFindings(review: ArgumentReview): ArgumentFinding[] {
  return review.findings.filter((finding) => finding.verdict === 'unusual');
}

function lookup(rules: readonly FlagRule[], name: string): FlagRule | undefined {
  return rules.find((rule) => rule.names.includes(name));
}

/** The worse of two verdicts (refused over unusual over allowed). */
function worse(a: Verdict, b: Verdict): Verdict {
  if (a?.verdict === 'refused') return a;
  if (b?.verdict === 'refused') return b;
  return a ?? b;
}

/**
 * The launcher's options, read the way getopt-style parsers (pflag, clap, nopt, argparse) read them. Where parsers
 * differ (abbreviated long options, `-long` with one dash, a value that looks like an option), each reading is
 * judged and the worse verdict wins.
 */
function reviewRuntimeArgs(runtime: Runtime, tokens: readonly string[]): ArgumentFinding[] {
  const rules = RULES[runtime];
  const findings: ArgumentFinding[] = [];
  const add = (argument: string, verdict: Verdict) => {
    if (verdict) findings.push({ ...verdict, place: 'runtime', argument });
  };
  // For the package launchers every path or URL value is a way to another source (their options that take paths
  // are configuration, caches and prefixes); docker's path values are container paths, checked per option.
  const pathsAreSources = runtime !== 'docker' && runtime !== 'podman';

  const judgeValue = (rule: FlagRule | undefined, value: string | undefined): Verdict => {
    const own = rule ? rule.check?.(value) : unusual('unknown-option');
    if (own?.verdict === 'refused') return own;
    if (value !== undefined && pathsAreSources && !asked(value) && isOtherSource(value))
      return refused(isLocalPath(value) ? 'local-path' : 'another-source');
    return own;
  };

  /** The rules a long name may mean: itself, or (npm's nopt and argparse take abbreviations) any it begins. */
  const longRules = (name: string): FlagRule[] => {
    const exact = lookup(rules, name) ?? scopedRegistry(runtime, name);
    if (exact) return [exact];
    if (name.length < 4) return [];
    return rules.filter((rule) => rule.names.some((known) => known.startsWith('--') && known.startsWith(name)));
  };

  /** `--name`, `--name=value` or `--name value` at `index`; returns [verdict, shown text, index of the last word]. */
  const readLong = (name: string, inline: string | undefined, index: number): [Verdict, string, number] => {
    const candidates = longRules(name);
    const takesValue = candidates.length === 0 || candidates.some((rule) => rule.takesValue);
    if (inline !== undefined || !takesValue) {
      const shown = inline === undefined ? name : `${name}=${inline}`;
      if (candidates.length === 0) return [judgeValue(undefined, inline), shown, index];
      const verdict = candidates
        .map((rule) =>
          rule.takesValue
            ? judgeValue(rule, inline)
            : (rule.check?.(inline) ??
              (inline === undefined || /^(true|false)$/i.test(inline) ? undefined : unusual('unknown-option'))),
        )
        .reduce(worse, undefined);
      return [verdict, shown, index];
    }
    const value = tokens[index + 1];
    if (value === undefined) {
      // An unknown option alone is shown; a known one that takes a value would take the package's name.
      return [candidates.length === 0 ? unusual('unknown-option') : refused('swallows-package'), name, index];
    }
    if (value.startsWith('-') && value.length > 1 && !/^-\d/.test(value)) {
      // Some parsers take it as the value, others as the next option: both are judged. It is not consumed, so
      // the loop reads it as an option too.
      const asValue = candidates.map((rule) => judgeValue(rule, value)).reduce(worse, undefined);
      return [
        worse(asValue, candidates.length === 0 ? unusual('unknown-option') : unusual('flag-like-value')),
        `${name} ${value}`,
        index,
      ];
    }
    const verdict =
      candidates.length === 0
        ? judgeValue(undefined, value)
        : candidates.map((rule) => judgeValue(rule, value)).reduce(worse, undefined);
    return [verdict, `${name} ${value}`, index + 1];
  };

  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token === '--' || !token.startsWith('-') || token === '-') {
      // A word before the package is read as the package (or image, or command) itself, and `--` ends the options
      // so the next word is: either way something other than the label runs.
      add(token, refused('another-package'));
      continue;
    }
    if (token.startsWith('--')) {
      const at = token.indexOf('=');
      const [verdict, shown, last] = readLong(
        at < 0 ? token : token.slice(0, at),
        at < 0 ? undefined : token.slice(at + 1),
        index,
      );
      add(shown, verdict);
      index = last;
      continue;
    }
    // A short option or a cluster of them: `-it`, `-v/:/host`, `-p=evil`, `-iv /:/host`.
    const cluster: [Verdict, string][] = [];
    let unknown = false;
    let last = index;
    for (let at = 1; at < token.length; at++) {
      const name = `-${token[at]}`;
      const rule = lookup(rules, name);
      if (!rule) {
        unknown = true;
        continue;
      }
      if (!rule.takesValue) {
        cluster.push([rule.check?.(undefined), name]);
        continue;
      }
      const rest = token.slice(at + 1).replace(/^=/, '');
      if (rest !== '') cluster.push([judgeValue(rule, rest), `${name} ${rest}`]);
      else {
        const [verdict, shown, used] = readShortValue(rule, name, index);
        cluster.push([verdict, shown]);
        last = used;
      }
      break;
    }
    if (unknown && token.length > 2) {
      // nopt (npm) and Go's flag read `-registry=x` as `--registry=x`: judged that way too.
      const at = token.indexOf('=');
      const [verdict, shown, used] = readLong(
        `-${at < 0 ? token : token.slice(0, at)}`,
        at < 0 ? undefined : token.slice(at + 1),
        index,
      );
      cluster.push([worse(verdict, unusual('unknown-option')), shown.slice(1)]);
      last = Math.max(last, used);
    } else if (unknown) cluster.push([unusual('unknown-option'), token]);
    for (const [verdict, shown] of cluster) add(shown, verdict);
    index = last;
  }
  return findings;

  /** `-x value`: as a long option's separate value. */
  function readShortValue(rule: FlagRule, name: string, index: number): [Verdict, string, number] {
    const value = tokens[index + 1];
    if (value === undefined) return [refused('swallows-package'), name, index];
    if (value.startsWith('-') && value.length > 1 && !/^-\d/.test(value))
      return [worse(judgeValue(rule, value), unusual('flag-like-value')), `${name} ${value}`, index];
    return [judgeValue(rule, value), `${name} ${value}`, index + 1];
  }
}

/** npm's `--@scope:registry=<url>`: the registry for one scope (the package's own, perhaps). */
function scopedRegistry(runtime: Runtime, name: string): FlagRule | undefined {
  if ((runtime === 'npx' || runtime === 'bunx' || runtime === 'pnpx') && /^--@[^:]+:registry$/.test(name))
    return { names: [name], takesValue: true, check: always(refused('another-source')) };
  return undefined;
}

/**
 * The server's arguments, after the package: the launcher passes them on unread, so only a shell is refused (`sh
 * -c …`, wherever it appears). For a container, the first word replaces the image's command: a shell there is
 * refused and another program is shown.
 */
function reviewPackageArgs(runtime: Runtime, tokens: readonly string[]): ArgumentFinding[] {
  const findings: ArgumentFinding[] = [];
  tokens.forEach((token, index) => {
    const next = tokens[index + 1];
    if (runsInlineCode(token, next))
      findings.push({ verdict: 'refused', place: 'package', argument: `${token} ${next}`, reason: 'shell' });
  });
  if ((runtime === 'docker' || runtime === 'podman') && tokens.length > 0 && !tokens[0].startsWith('-')) {
    const first = tokens[0];
    if (isShell(first) && !findings.some((finding) => finding.reason === 'shell'))
      findings.push({ verdict: 'refused', place: 'package', argument: first, reason: 'shell' });
    else if (/^[/\\]/.test(first))
      findings.push({ verdict: 'unusual', place: 'package', argument: first, reason: 'other-program' });
  }
  return findings;
}
