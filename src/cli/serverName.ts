/**
 * The name the CLI gives a `--stdio` server in every message. Naming it after its command would make almost every
 * line say `node: …`, `npx: …` or `uvx: …`; a person recognises the package or script instead, so launchers and
 * interpreters are looked through: `npx -y @modelcontextprotocol/server-everything` is `server-everything`,
 * `node …/server-everything/dist/index.js` is `server-everything` (its package), `uv --directory ~/weather run
 * weather.py` is `weather`, `docker run -i --rm ghcr.io/github/github-mcp-server` is `github-mcp-server`.
 *
 * The name is decided once, before the server starts, and kept for the whole run: see `resolveTarget`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { splitCommandLine } from '../workbench/config/commandLine';

/** How one launcher finds the word that names the server. */
type Launcher =
  /** The first operand is a package to fetch and run (`npx pkg`, `uvx tool`). */
  | { kind: 'package'; valueOptions: readonly string[] }
  /** The first operand is a script or, after `-m`, a module (`node x.js`, `python -m pkg`). */
  | { kind: 'interpreter'; valueOptions: readonly string[] }
  /** A subcommand selects what the operand is (`npm exec pkg`, `uv run x.py`, `docker run image`). */
  | { kind: 'subcommand'; valueOptions: readonly string[]; subcommands: Readonly<Record<string, Launcher>> }
  /** The operand is a whole command line to look through again (`cmd /c npx …`, `sh -c "npx …"`). */
  | { kind: 'wrapper'; flags: readonly string[] };

const NODE_VALUE_OPTIONS = [
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '--conditions',
  '-C',
  '--env-file',
  '--inspect-port',
  '--title',
];
const PYTHON_VALUE_OPTIONS = ['-W', '-X', '-c'];
const NPX: Launcher = {
  kind: 'package',
  valueOptions: ['-p', '--package', '-c', '--call', '--registry', '--cache', '--userconfig'],
};
const UVX: Launcher = {
  kind: 'package',
  valueOptions: [
    '--from',
    '--with',
    '--with-requirements',
    '--with-editable',
    '-p',
    '--python',
    '--index',
    '--index-url',
    '--extra-index-url',
    '--directory',
    '--project',
  ],
};
const UV_RUN: Launcher = {
  kind: 'interpreter',
  valueOptions: [
    '--with',
    '--with-requirements',
    '--with-editable',
    '-p',
    '--python',
    '--directory',
    '--project',
    '--package',
    '--extra',
    '--group',
    '--index',
    '--env-file',
  ],
};
const NODE: Launcher = { kind: 'interpreter', valueOptions: NODE_VALUE_OPTIONS };
const PYTHON: Launcher = { kind: 'interpreter', valueOptions: PYTHON_VALUE_OPTIONS };
const DOCKER_RUN: Launcher = {
  kind: 'package',
  valueOptions: [
    '-e',
    '--env',
    '--env-file',
    '-v',
    '--volume',
    '-p',
    '--publish',
    '--name',
    '--network',
    '--mount',
    '-w',
    '--workdir',
    '-u',
    '--user',
    '--entrypoint',
    '--platform',
    '-l',
    '--label',
    '--add-host',
    '--cap-add',
    '--cap-drop',
    '--security-opt',
    '-m',
    '--memory',
    '--cpus',
    '--pull',
    '--runtime',
    '--hostname',
    '-h',
    '--ulimit',
    '--shm-size',
    '--gpus',
    '--device',
    '--dns',
  ],
};

const LAUNCHERS: Readonly<Record<string, Launcher>> = {
  npx: NPX,
  pnpx: NPX,
  bunx: NPX,
  uvx: UVX,
  npm: {
    kind: 'subcommand',
    valueOptions: ['--prefix', '-C', '-w', '--workspace'],
    subcommands: { exec: NPX, x: NPX },
  },
  pnpm: { kind: 'subcommand', valueOptions: ['-C', '--dir', '--filter'], subcommands: { dlx: NPX, exec: NPX } },
  yarn: { kind: 'subcommand', valueOptions: ['--cwd'], subcommands: { dlx: NPX, exec: NPX } },
  bun: { kind: 'subcommand', valueOptions: [], subcommands: { x: NPX, run: NODE } },
  uv: {
    kind: 'subcommand',
    valueOptions: ['--directory', '--project', '--cache-dir', '--config-file'],
    subcommands: { run: UV_RUN, tool: { kind: 'subcommand', valueOptions: [], subcommands: { run: UVX } } },
  },
  pipx: {
    kind: 'subcommand',
    valueOptions: [],
    subcommands: { run: { kind: 'package', valueOptions: ['--spec', '--python', '--pip-args'] } },
  },
  deno: {
    kind: 'subcommand',
    valueOptions: [],
    subcommands: {
      run: { kind: 'interpreter', valueOptions: ['--config', '-c', '--import-map', '--env-file', '--location'] },
    },
  },
  docker: {
    kind: 'subcommand',
    valueOptions: ['--context', '-H', '--host', '--config'],
    subcommands: {
      run: DOCKER_RUN,
      container: { kind: 'subcommand', valueOptions: [], subcommands: { run: DOCKER_RUN } },
    },
  },
  podman: { kind: 'subcommand', valueOptions: [], subcommands: { run: DOCKER_RUN } },
  node: NODE,
  nodejs: NODE,
  tsx: NODE,
  'ts-node': NODE,
  python: PYTHON,
  python3: PYTHON,
  py: PYTHON,
  ruby: { kind: 'interpreter', valueOptions: ['-r', '-I'] },
  php: { kind: 'interpreter', valueOptions: ['-c', '-d'] },
  java: { kind: 'interpreter', valueOptions: ['-cp', '-classpath', '--class-path'] },
  cmd: { kind: 'wrapper', flags: ['/c', '/C', '/k', '/K', '/s', '/S', '/d', '/D'] },
  sh: { kind: 'wrapper', flags: ['-c', '-l', '-e'] },
  bash: { kind: 'wrapper', flags: ['-c', '-l', '-e'] },
  zsh: { kind: 'wrapper', flags: ['-c', '-l', '-e'] },
  env: { kind: 'wrapper', flags: ['-i', '-S'] },
};

/** File names that say nothing about the server; their package or folder names it instead. */
const GENERIC_SCRIPT_NAMES = new Set([
  'index',
  'main',
  'server',
  'cli',
  'app',
  'start',
  'run',
  'mcp',
  'stdio',
  'bin',
  'entry',
  'launch',
  'serve',
  '__main__',
  'mod',
  'proxy',
]);
/** Package names that say nothing without their scope. */
const GENERIC_PACKAGE_NAMES = new Set([...GENERIC_SCRIPT_NAMES, 'mcp-server', 'server-mcp', 'mcp-cli']);
/** Build and source folders between a project and its entry script. */
const GENERIC_FOLDERS = new Set([
  'dist',
  'build',
  'lib',
  'out',
  'src',
  'bin',
  'esm',
  'cjs',
  'dist-cjs',
  'dist-esm',
  'target',
  'release',
  'debug',
  'app',
]);
const SCRIPT_EXTENSION = /\.(?:[cm]?[jt]s|py|rb|php|jar|exe|cmd|bat|ps1|sh)$/i;
const JS_EXTENSION = /\.(?:[cm]?[jt]s)$/i;

type PackageNameReader = (scriptPath: string) => string | undefined;

/** Names a stdio server from its command line; `readPackageName` finds the package a script belongs to. */
export function stdioServerName(
  command: string,
  args: readonly string[],
  cwd: string = process.cwd(),
  readPackageName: PackageNameReader = nearestPackageName,
): string {
  return nameFrom(command, args, cwd, readPackageName, 0) ?? commandName(command);
}

function nameFrom(
  command: string,
  args: readonly string[],
  cwd: string,
  readPackageName: PackageNameReader,
  depth: number,
): string | undefined {
  const launcher = LAUNCHERS[commandName(command).toLowerCase()];
  if (!launcher || depth > 4) return commandName(command);
  return throughLauncher(launcher, args, cwd, readPackageName, depth);
}

function throughLauncher(
  launcher: Launcher,
  args: readonly string[],
  cwd: string,
  readPackageName: PackageNameReader,
  depth: number,
): string | undefined {
  switch (launcher.kind) {
    case 'wrapper': {
      let index = 0;
      // `env NAME=value cmd …` sets variables before the command.
      while (
        index < args.length &&
        (launcher.flags.includes(args[index]) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[index]))
      )
        index++;
      const rest = args.slice(index);
      if (rest.length === 0) return undefined;
      // `sh -c "npx -y pkg"` hands the whole command line over as one word.
      let words = rest;
      if (rest.length === 1 && /\s/.test(rest[0])) {
        try {
          words = splitCommandLine(rest[0]);
        } catch {
          return undefined;
        }
      }
      const [inner, ...innerArgs] = words;
      return inner === undefined ? undefined : nameFrom(inner, innerArgs, cwd, readPackageName, depth + 1);
    }
    case 'subcommand': {
      const found = firstOperand(args, launcher.valueOptions);
      if (!found) return undefined;
      const next = launcher.subcommands[found.word];
      // `uv run mcp-server-x` or `bun server.ts` without a subcommand we know: the word itself names the server.
      if (!next) return operandName(found.word, cwd, readPackageName);
      return throughLauncher(next, args.slice(found.index + 1), cwd, readPackageName, depth);
    }
    case 'package': {
      const found = firstOperand(args, launcher.valueOptions);
      return found ? operandName(found.word, cwd, readPackageName) : undefined;
    }
    case 'interpreter': {
      const moduleIndex = args.indexOf('-m');
      const found = firstOperand(args, launcher.valueOptions);
      if (moduleIndex !== -1 && moduleIndex + 1 < args.length && (!found || found.index > moduleIndex))
        return args[moduleIndex + 1];
      if (!found) return undefined;
      // `uv run python server.py`, `node --import tsx server.ts`: an interpreter named as the operand is looked through.
      const inner = LAUNCHERS[commandName(found.word).toLowerCase()];
      if (inner && inner.kind === 'interpreter')
        return throughLauncher(inner, args.slice(found.index + 1), cwd, readPackageName, depth + 1);
      return operandName(found.word, cwd, readPackageName);
    }
  }
}

/** The first word that is not an option (nor an option's value); `--` ends the options. */
function firstOperand(
  args: readonly string[],
  valueOptions: readonly string[],
): { word: string; index: number } | undefined {
  for (let index = 0; index < args.length; index++) {
    const word = args[index];
    if (word === '--') return index + 1 < args.length ? { word: args[index + 1], index: index + 1 } : undefined;
    if (word.startsWith('-') && word.length > 1) {
      if (!word.includes('=') && valueOptions.includes(word)) index++;
      continue;
    }
    return { word, index };
  }
  return undefined;
}

/** A package spec (`@scope/name@1.2`, `mcp-server-fetch==1.0`, `ghcr.io/org/image:tag`) or a script path. */
function operandName(word: string, cwd: string, readPackageName: PackageNameReader): string | undefined {
  const spec = word.replace(/^(?:npm|jsr|pypi):/, '');
  if (/^(?:git\+|https?:\/\/|github:)/.test(spec)) {
    const last =
      spec
        .replace(/[#?].*$/, '')
        .replace(/\/+$/, '')
        .split('/')
        .pop() ?? '';
    return last.replace(/\.git$/, '') || undefined;
  }
  const looksLikePath =
    spec.startsWith('.') ||
    spec.startsWith('/') ||
    spec.startsWith('~') ||
    /^[A-Za-z]:[\\/]/.test(spec) ||
    spec.includes('\\') ||
    SCRIPT_EXTENSION.test(spec);
  if (!looksLikePath) return packageName(spec);
  return scriptName(spec, cwd, readPackageName);
}

function packageName(spec: string): string | undefined {
  // `@scope/name@version` → `name`; `name@latest` → `name`; `name==1.0` / `name>=1` (Python) → `name`;
  // `registry/org/image:tag@sha256:…` (container image) → `image`.
  const scoped = spec.startsWith('@');
  let rest = scoped ? spec.slice(1) : spec;
  rest = rest
    .replace(/@.*$/, '')
    .replace(/[=<>~!].*$/, '')
    .replace(/\[.*$/, '');
  const parts = rest.split('/');
  const last = (parts.pop() ?? '').replace(/:[^/]*$/, '');
  // `@azure-devops/mcp`, `@playwright/mcp`, `@pandacss/mcp`, `@sentry/mcp-server`: the name alone says nothing (the
  // sweep of issue 23 met three servers all named "mcp"); their scope is what a person recognises.
  const scope = parts.length === 1 ? parts[0] : undefined;
  if (scoped && scope && GENERIC_PACKAGE_NAMES.has(last.toLowerCase())) return `${scope}/${last}`;
  return last || undefined;
}

function scriptName(script: string, cwd: string, readPackageName: PackageNameReader): string | undefined {
  // win32's path functions split on both separators, so a Windows path typed on Linux is still named well.
  const base = path.win32.basename(script).replace(SCRIPT_EXTENSION, '');
  if (base && !GENERIC_SCRIPT_NAMES.has(base.toLowerCase())) return base;
  if (JS_EXTENSION.test(script) || !/\.[^\\/]+$/.test(script)) {
    const owner = readPackageName(path.resolve(cwd, script));
    if (owner) return packageName(owner);
  }
  const folders = path.win32
    .dirname(script)
    .split(/[\\/]/)
    .filter((part) => part !== '' && part !== '.' && part !== '..' && !/^[A-Za-z]:$/.test(part));
  while (folders.length > 0 && GENERIC_FOLDERS.has(folders[folders.length - 1].toLowerCase())) folders.pop();
  return folders.pop() ?? (path.basename(cwd) || base || undefined);
}

/** The command's own file name, without a Windows executable extension. */
function commandName(command: string): string {
  return path.win32.basename(command).replace(/\.(?:exe|cmd|bat|com|ps1)$/i, '') || command;
}

/**
 * The `name` in the package.json nearest to `scriptPath`, looking at most a few folders up so that a script in an
 * unrelated tree is not named after a distant workspace.
 */
export function nearestPackageName(scriptPath: string): string | undefined {
  let dir = path.dirname(scriptPath);
  for (let level = 0; level < 4; level++) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (typeof manifest.name === 'string' && manifest.name !== '') return manifest.name;
    } catch {
      // No manifest here (or not JSON): keep looking upwards.
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}
