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

type Verdict = { verdict: Exclude<ArgumentVerdict, 'allowed'>; reason: ArgumentReason } | undefined;
const refused = (reason: ArgumentReason): Verdict => ({ verdict: 'refused', reason });
const unusual = (reason: ArgumentReason): Verdict => ({ verdict: 'unusual', reason });

interface FlagRule {
  /** Every spelling: `--long`, and `-x` for a one-letter short form. */
  names: readonly string[];
  /** It takes a value (`--flag=value`, `--flag value`, or the rest of a short cluster). */
  takesValue: boolean;
  /** The verdict for this flag; for a flag that takes one, decided from its value. Absent: allowed. */
  check?: (value: string | undefined) => Verdict;
}

const INPUT_REFERENCE = /\$\{input:[^}]*\}/;
const asked = (value: string | undefined) => value !== undefined && INPUT_REFERENCE.test(value);

/** A file or folder of this computer: absolute, relative, home, or a Windows drive or share. */
function isLocalPath(value: string): boolean {
  return /^(\/|\.\.?([/\\]|$)|~|\\|[A-Za-z]:[\\/]|file:)/i.test(value);
}

/** A source other than the package registry: a VCS or archive URL, a file URL, or a local path. */
function isOtherSource(value: string): boolean {
  return (
    /^(git\+|git:|hg\+|svn\+|bzr\+|github:|gitlab:|bitbucket:|gist:|file:|https?:|ssh:)/i.test(value) ||
    /\.(git|tgz|tar\.gz|tar|zip|whl)$/i.test(value) ||
    isLocalPath(value)
  );
}

const always = (verdict: Verdict) => (): Verdict => verdict;

/** The options npx (npm exec), bunx and pnpx (pnpm dlx) take before the package. */
const NPM_RULES: readonly FlagRule[] = [
  // Answers "Ok to proceed?", which would otherwise be read from the protocol's stdin.
  { names: ['--yes', '-y'], takesValue: false },
  // Refuses to install anything not yet cached: it can only make less run.
  { names: ['--no'], takesValue: false },
  // Cache and network preferences: the same package either way.
  { names: ['--prefer-offline', '--prefer-online', '--offline'], takesValue: false },
  // Output volume only; npm writes its log to stderr, not to the protocol stream.
  { names: ['--quiet', '-q', '--silent', '--no-update-notifier', '--no-fund', '--no-audit'], takesValue: false },
  { names: ['--loglevel'], takesValue: true },
  // Bun's own runtime instead of Node for the package's bin: the same package.
  { names: ['--bun'], takesValue: false },
  // Names the package (or extra packages) to install, so the bin that runs is from another package than the label.
  { names: ['--package', '-p'], takesValue: true, check: always(refused('another-package')) },
  // Runs a command line in a shell instead of a package's bin.
  { names: ['--call', '-c'], takesValue: true, check: always(refused('shell')) },
  // The shell npm runs scripts with: a program of the entry's choosing.
  { names: ['--script-shell', '--shell'], takesValue: true, check: always(refused('shell')) },
  // Another registry serves a package of the same name with other code.
  { names: ['--registry'], takesValue: true, check: always(refused('another-source')) },
  // Configuration files can set the registry, scripts and everything else.
  { names: ['--userconfig', '--globalconfig'], takesValue: true, check: always(refused('runtime-config')) },
  // Where npm installs and looks for packages: an entry-chosen folder can hold other code under the same name.
  { names: ['--prefix', '--cache', '--workspace', '-w'], takesValue: true, check: always(refused('local-path')) },
  {
    names: ['--workspaces', '--ws', '--include-workspace-root'],
    takesValue: false,
    check: always(refused('local-path')),
  },
  // Node options such as --require load any file into the process.
  { names: ['--node-options', '--node-arg', '-n'], takesValue: true, check: always(refused('code-injection')) },
  // Without TLS verification or with another CA, anyone on the way can serve other code.
  {
    names: ['--strict-ssl'],
    takesValue: false,
    check: (value) => (value === undefined || value === 'true' ? undefined : refused('insecure-download')),
  },
  { names: ['--ca', '--cafile'], takesValue: true, check: always(refused('insecure-download')) },
  { names: ['--no-strict-ssl'], takesValue: false, check: always(refused('insecure-download')) },
  // Runs install scripts as root or as another user.
  { names: ['--unsafe-perm'], takesValue: false, check: always(refused('privilege')) },
];

/** The options uvx (uv tool run) and pipx run take before the package. */
const PYPI_RULES: readonly FlagRule[] = [
  // Output and cache behaviour: the same package either way.
  {
    names: [
      '--quiet',
      '-q',
      '--verbose',
      '-v',
      '--no-progress',
      '--offline',
      '--refresh',
      '--isolated',
      '--native-tls',
    ],
    takesValue: false,
  },
  { names: ['--color'], takesValue: true },
  // The Python version: a version or an implementation name is fine; a path is another program, asked-for text
  // could be one.
  {
    names: ['--python', '-p'],
    takesValue: true,
    check: (value) =>
      value === undefined || asked(value)
        ? refused('asked-value')
        : /^(cpython|pypy|python|graalpy)?[@-]?\d+(\.\d+){0,2}[a-z0-9]*$/i.test(value) ||
            /^(cpython|pypy|python|graalpy)$/i.test(value)
          ? undefined
          : refused('local-path'),
  },
  // The package (or a requirement file, or an editable folder) the command comes from: another package or source.
  { names: ['--from', '--spec'], takesValue: true, check: always(refused('another-source')) },
  // Extra packages installed beside the named one: other code in the same environment.
  {
    names: ['--with', '-w', '--with-requirements', '--with-editable', '--editable', '-e', '--pip-args', '--preinstall'],
    takesValue: true,
    check: always(refused('another-package')),
  },
  // Another index serves a package of the same name with other code.
  {
    names: ['--index-url', '-i', '--extra-index-url', '--index', '--default-index', '--find-links', '-f'],
    takesValue: true,
    check: always(refused('another-source')),
  },
  // uv's choice among several indexes ("unsafe-best-match" lets a second index shadow the first).
  { names: ['--index-strategy'], takesValue: true, check: always(refused('another-source')) },
  // Plain http or unverified TLS for an index: anyone on the way can serve other code.
  {
    names: ['--allow-insecure-host', '--trusted-host'],
    takesValue: true,
    check: always(refused('insecure-download')),
  },
  // A configuration file can set the index and everything else; the project or directory holds one too.
  {
    names: ['--config-file', '--directory', '--project', '--env-file'],
    takesValue: true,
    check: always(refused('runtime-config')),
  },
  // pipx run: the app is a local file or folder rather than the package.
  { names: ['--path'], takesValue: false, check: always(refused('local-path')) },
  // Lets the app see the system interpreter's packages: other code, but nothing an entry chooses; shown.
  { names: ['--system-site-packages'], takesValue: false, check: always(unusual('unusual-option')) },
];

/** A host path in `-v`/`--volume`: `source:target[:options]`, where a source without "/" is a named volume. */
function volumeCheck(value: string | undefined): Verdict {
  if (value === undefined) return refused('swallows-package');
  const parts = value.split(':');
  // "/data": an anonymous volume, inside the container only. "C:\x:/data" (Windows) has a drive letter first.
  if (parts.length === 1) return isLocalPath(value) && !value.startsWith('/') ? refused('host-mount') : undefined;
  const source = /^[A-Za-z]$/.test(parts[0]) ? `${parts[0]}:${parts[1]}` : parts[0];
  if (asked(source)) return refused('host-mount');
  // A named volume lives in the container engine's storage: it cannot reach the host's files.
  return /^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(source) ? undefined : refused('host-mount');
}

/** `--mount type=bind,source=/,target=/host`: binds are host paths; named volumes and tmpfs are not. */
function mountCheck(value: string | undefined): Verdict {
  if (value === undefined) return refused('swallows-package');
  if (asked(value)) return refused('host-mount');
  const fields = new Map(
    value.split(',').map((field) => {
      const at = field.indexOf('=');
      return at < 0 ? [field.trim().toLowerCase(), ''] : [field.slice(0, at).trim().toLowerCase(), field.slice(at + 1)];
    }),
  );
  const type = (fields.get('type') ?? 'volume').toLowerCase();
  if (type === 'tmpfs') return undefined;
  if (type !== 'volume') return refused('host-mount');
  const source = fields.get('source') ?? fields.get('src') ?? '';
  if (source !== '' && !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(source)) return refused('host-mount');
  // A volume with a driver's options (`volume-opt=type=none,o=bind,device=/`) binds a host folder all the same.
  return [...fields.keys()].some((key) => key.startsWith('volume-opt') || key === 'volume-driver')
    ? refused('host-mount')
    : undefined;
}

/** `--network`, `--pid`, `--ipc`, …: "host" or "container:<id>" share the host's or another container's. */
function namespaceCheck(value: string | undefined): Verdict {
  if (value === undefined) return refused('swallows-package');
  if (asked(value)) return refused('asked-value');
  return /^(host|container:.*|ns:.*|service:.*)$/i.test(value.trim()) ? refused('host-namespace') : undefined;
}

/** `--user`: root by name or by id 0 (with or without a group) is refused; another user is fine. */
function userCheck(value: string | undefined): Verdict {
  if (value === undefined) return refused('swallows-package');
  if (asked(value)) return refused('asked-value');
  const user = value.split(':')[0].trim();
  return user === '' || user === 'root' || /^0+$/.test(user) ? refused('root-user') : undefined;
}

/** The options `docker run` and `podman run` take before the image. */
const OCI_RULES: readonly FlagRule[] = [
  // Keeps stdin open for the protocol; removes the container afterwards; an init process reaps children.
  { names: ['--interactive', '-i', '--rm', '--init', '--read-only'], takesValue: false },
  // Environment inside the container (NAME or NAME=value): the container's own business.
  { names: ['--env', '-e'], takesValue: true },
  // Which image version to pull, for which platform: the same image name either way.
  { names: ['--pull', '--platform'], takesValue: true },
  // Limits and names: they take away or label, they do not grant.
  {
    names: [
      '--memory',
      '-m',
      '--memory-swap',
      '--cpus',
      '--cpu-shares',
      '--pids-limit',
      '--name',
      '--label',
      '-l',
      '--hostname',
      '-h',
      '--workdir',
      '-w',
      '--tmpfs',
      '--stop-timeout',
      '--stop-signal',
      '--expose',
      '--cap-drop',
    ],
    takesValue: true,
  },
  // Another DNS server answers the container's look-ups; a log driver can send its output to another host: shown.
  {
    names: ['--dns', '--dns-search', '--log-driver', '--log-opt'],
    takesValue: true,
    check: always(unusual('unusual-option')),
  },
  // Its own network, the default bridge, or none: fine; the host's, or another container's, is not.
  { names: ['--network', '--net'], takesValue: true, check: namespaceCheck },
  // The host's process, IPC, UTS, user, cgroup namespaces: the container sees and reaches the host.
  { names: ['--pid', '--ipc', '--uts', '--userns', '--cgroupns'], takesValue: true, check: namespaceCheck },
  // Every capability and every device: root on the host.
  { names: ['--privileged'], takesValue: false, check: always(refused('privilege')) },
  // Capabilities beyond the default set (SYS_ADMIN, NET_ADMIN…) are ways out of the container.
  { names: ['--cap-add'], takesValue: true, check: always(refused('privilege')) },
  // Security options turn off seccomp, AppArmor or SELinux; only the one that takes away privilege is fine.
  {
    names: ['--security-opt'],
    takesValue: true,
    check: (value) =>
      value !== undefined && /^no-new-privileges(:true|=true)?$/.test(value.trim()) ? undefined : refused('privilege'),
  },
  // Another OCI runtime, or kernel parameters, or the OOM killer off: host-level changes.
  {
    names: ['--runtime', '--sysctl', '--oom-kill-disable', '--oom-score-adj', '--cgroup-parent'],
    takesValue: true,
    check: always(refused('privilege')),
  },
  // The host's devices (disks, GPUs, /dev/mem).
  { names: ['--device', '--device-cgroup-rule', '--gpus'], takesValue: true, check: always(refused('device')) },
  // Host folders and files in the container ("/:/host" is the whole disk); named volumes stay in the engine.
  { names: ['--volume', '-v'], takesValue: true, check: volumeCheck },
  { names: ['--mount'], takesValue: true, check: mountCheck },
  // Another container's volumes, which may be host binds.
  { names: ['--volumes-from'], takesValue: true, check: always(refused('host-mount')) },
  // Host files read (env files, label files) or written (the container id file).
  {
    names: ['--env-file', '--label-file', '--cidfile'],
    takesValue: true,
    check: always(refused('local-path')),
  },
  // Root inside the container is one step from root on the host (with any other weakness).
  { names: ['--user', '-u'], takesValue: true, check: userCheck },
  // Extra groups: group 0 or the host's docker group are root by another name; shown.
  { names: ['--group-add'], takesValue: true, check: always(unusual('unusual-option')) },
  // Runs another program than the image's: the label says the image, the container runs something else.
  { names: ['--entrypoint'], takesValue: true, check: always(refused('entrypoint')) },
  // A terminal corrupts the protocol's bytes; detached means no stdio at all; ports are opened on the host.
  { names: ['--tty', '-t', '--detach', '-d'], takesValue: false, check: always(unusual('unusual-option')) },
  { names: ['--publish', '-p', '--add-host'], takesValue: true, check: always(unusual('unusual-option')) },
  { names: ['--publish-all', '-P'], takesValue: false, check: always(unusual('unusual-option')) },
];

/** The options dnx takes before the package. */
const NUGET_RULES: readonly FlagRule[] = [
  // Answers the confirmation prompt; output and cache behaviour: the same package either way.
  { names: ['--yes', '-y', '--no-cache', '--no-http-cache', '--disable-parallel'], takesValue: false },
  { names: ['--verbosity', '-v'], takesValue: true },
  // Lets a tool built for an older runtime run on a newer one: the same package.
  { names: ['--allow-roll-forward'], takesValue: false },
  // Another version of the package than the one listed (the mapping writes the version itself).
  { names: ['--version'], takesValue: true, check: always(refused('another-package')) },
  // Pre-release versions: another version than listed may be chosen; shown.
  { names: ['--prerelease'], takesValue: false, check: always(unusual('unusual-option')) },
  // Another feed serves a package of the same name with other code; a config file names feeds.
  { names: ['--source', '-s', '--add-source'], takesValue: true, check: always(refused('another-source')) },
  { names: ['--configfile'], takesValue: true, check: always(refused('runtime-config')) },
  // Continuing past a failing feed lets a second feed answer for the package.
  { names: ['--ignore-failed-sources'], takesValue: false, check: always(refused('another-source')) },
  // Interactive sign-in prompts read stdin, which is the protocol stream; shown.
  { names: ['--interactive'], takesValue: false, check: always(unusual('unusual-option')) },
];

const RULES: Readonly<Record<Runtime, readonly FlagRule[]>> = {
  npx: NPM_RULES,
  bunx: NPM_RULES,
  pnpx: NPM_RULES,
  uvx: PYPI_RULES,
  pipx: PYPI_RULES,
  docker: OCI_RULES,
  podman: OCI_RULES,
  dnx: NUGET_RULES,
  // A bundle's runtime arguments are never written (mcpb.ts runs the manifest's command): any would be unusual.
  mcpb: [],
};

/** Programs that run a command line given as an argument, and the options that give it. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'fish', 'ash', 'csh', 'tcsh', 'cmd', 'powershell', 'pwsh']);
const SHELL_COMMAND_FLAG = /^(-[a-z]*c[a-z]*|\/c|\/k|-command|-encodedcommand|-e|-ec)$/i;
/** Interpreters that run inline code, and their options for it (`python -c`, `node -e`, `perl -e`). */
const INTERPRETERS = new Map<string, RegExp>([
  ['python', /^-[a-z]*c$/i],
  ['node', /^(-e|-p|--eval|--print)(=.*)?$/],
  ['deno', /^eval$/],
  ['bun', /^(-e|--eval)$/],
  ['perl', /^-[a-z]*[eE]$/],
  ['ruby', /^-[a-z]*e$/],
  ['php', /^-r$/],
]);

/** The option after `token` makes it run inline code: a shell's `-c` or an interpreter's `-c`/`-e`. */
function runsInlineCode(token: string, next: string | undefined): boolean {
  if (next === undefined) return false;
  const base = (token.split(/[\\/]/).pop() ?? token).toLowerCase().replace(/\.exe$/, '');
  if (SHELLS.has(base)) return SHELL_COMMAND_FLAG.test(next);
  const interpreter = base.replace(/[\d.]+$/, '');
  return INTERPRETERS.get(interpreter)?.test(next) ?? false;
}

function isShell(token: string): boolean {
  const base = token.split(/[\\/]/).pop() ?? token;
  return SHELLS.has(base.toLowerCase().replace(/\.exe$/, ''));
}

/**
 * Environment variable names the launcher itself reads (the mapping writes `env` for the launcher's process; for
 * docker that is the docker client): they choose the registry, the daemon, or load code. Checked for every runtime,
 * since the same name means the same thing to any Node, Python or .NET process among them.
 */
const ENVIRONMENT_RULES: readonly { pattern: RegExp; reason: ArgumentReason }[] = [
  // npm reads every setting from npm_config_*: the registry, the script shell, the userconfig.
  { pattern: /^npm_config_/i, reason: 'runtime-config' },
  // Node loads --require/--import modules from NODE_OPTIONS; NODE_PATH resolves modules from elsewhere.
  { pattern: /^(NODE_OPTIONS|NODE_PATH)$/i, reason: 'code-injection' },
  // uv, pip and pipx read their index, Python and configuration from these.
  { pattern: /^(UV|PIP|PIPX)_/i, reason: 'runtime-config' },
  // Python imports from PYTHONPATH and runs PYTHONSTARTUP; the site file is code.
  { pattern: /^(PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PYTHONUSERBASE)$/i, reason: 'code-injection' },
  // The docker and podman clients: another daemon (a remote one), another configuration, another context.
  { pattern: /^(DOCKER_|CONTAINER_|CONTAINERS_|PODMAN_)/i, reason: 'runtime-config' },
  // NuGet feeds and configuration; .NET startup hooks load any assembly into the process.
  {
    pattern: /^(NUGET_|DOTNET_STARTUP_HOOKS$|DOTNET_ADDITIONAL_DEPS$|DOTNET_SHARED_STORE$)/i,
    reason: 'runtime-config',
  },
  // The dynamic linker loads these libraries into every program, the launcher included.
  { pattern: /^(LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_.*)$/i, reason: 'code-injection' },
  // PATH decides which npx, uvx or docker runs at all.
  { pattern: /^PATH$/i, reason: 'runtime-config' },
  // Where launchers find their configuration files (~/.npmrc, uv.toml, ~/.docker/config.json).
  { pattern: /^(HOME|USERPROFILE|XDG_CONFIG_HOME|APPDATA)$/i, reason: 'runtime-config' },
];

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
