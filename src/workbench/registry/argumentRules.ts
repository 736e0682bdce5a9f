/**
 * The rules of argumentPolicy.ts, as data: per runtime, the options it takes before the package and what each may
 * do; the shells and interpreters that run inline code; the environment names a launcher reads. One comment per rule
 * says why.
 */
import type { ArgumentReason, ArgumentVerdict, Runtime } from './argumentPolicy';

export type Verdict = { verdict: Exclude<ArgumentVerdict, 'allowed'>; reason: ArgumentReason } | undefined;
export const refused = (reason: ArgumentReason): Verdict => ({ verdict: 'refused', reason });
export const unusual = (reason: ArgumentReason): Verdict => ({ verdict: 'unusual', reason });

export interface FlagRule {
  /** Every spelling: `--long`, and `-x` for a one-letter short form. */
  names: readonly string[];
  /** It takes a value (`--flag=value`, `--flag value`, or the rest of a short cluster). */
  takesValue: boolean;
  /** The verdict for this flag; for a flag that takes one, decided from its value. Absent: allowed. */
  check?: (value: string | undefined) => Verdict;
}

export const INPUT_REFERENCE = /\$\{input:[^}]*\}/;
export const asked = (value: string | undefined) => value !== undefined && INPUT_REFERENCE.test(value);

/** A file or folder of this computer: absolute, relative, home, or a Windows drive or share. */
export function isLocalPath(value: string): boolean {
  return /^(\/|\.\.?([/\\]|$)|~|\\|[A-Za-z]:[\\/]|file:)/i.test(value);
}

/** A source other than the package registry: a VCS or archive URL, a file URL, or a local path. */
export function isOtherSource(value: string): boolean {
  return (
    /^(git\+|git:|hg\+|svn\+|bzr\+|github:|gitlab:|bitbucket:|gist:|file:|https?:|ssh:)/i.test(value) ||
    /\.(git|tgz|tar\.gz|tar|zip|whl)$/i.test(value) ||
    isLocalPath(value)
  );
}

export const always = (verdict: Verdict) => (): Verdict => verdict;

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

export const RULES: Readonly<Record<Runtime, readonly FlagRule[]>> = {
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
export const SHELLS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'fish',
  'ash',
  'csh',
  'tcsh',
  'cmd',
  'powershell',
  'pwsh',
]);
const SHELL_COMMAND_FLAG = /^(-[a-z]*c[a-z]*|\/c|\/k|-command|-encodedcommand|-e|-ec)$/i;
/** Interpreters that run inline code, and their options for it (`python -c`, `node -e`, `perl -e`). */
export const INTERPRETERS = new Map<string, RegExp>([
  ['python', /^-[a-z]*c$/i],
  ['node', /^(-e|-p|--eval|--print)(=.*)?$/],
  ['deno', /^eval$/],
  ['bun', /^(-e|--eval)$/],
  ['perl', /^-[a-z]*[eE]$/],
  ['ruby', /^-[a-z]*e$/],
  ['php', /^-r$/],
]);

/** The option after `token` makes it run inline code: a shell's `-c` or an interpreter's `-c`/`-e`. */
export function runsInlineCode(token: string, next: string | undefined): boolean {
  if (next === undefined) return false;
  const base = (token.split(/[\\/]/).pop() ?? token).toLowerCase().replace(/\.exe$/, '');
  if (SHELLS.has(base)) return SHELL_COMMAND_FLAG.test(next);
  const interpreter = base.replace(/[\d.]+$/, '');
  return INTERPRETERS.get(interpreter)?.test(next) ?? false;
}

export function isShell(token: string): boolean {
  const base = token.split(/[\\/]/).pop() ?? token;
  return SHELLS.has(base.toLowerCase().replace(/\.exe$/, ''));
}

/**
 * Environment variable names the launcher itself reads (the mapping writes `env` for the launcher's process; for
 * docker that is the docker client): they choose the registry, the daemon, or load code. Checked for every runtime,
 * since the same name means the same thing to any Node, Python or .NET process among them.
 */
export const ENVIRONMENT_RULES: readonly { pattern: RegExp; reason: ArgumentReason }[] = [
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
