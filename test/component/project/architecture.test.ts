import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import { repoRoot } from '../../support/paths';

const root = repoRoot;
const VSCODE_IMPORT = /(?:from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\))/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

test('src/protocol, src/workbench and src/cli never import vscode', () => {
  const offenders = ['src/protocol', 'src/workbench', 'src/cli']
    .flatMap((dir) => sourceFiles(path.join(root, dir)))
    .filter((file) => VSCODE_IMPORT.test(readFileSync(file, 'utf8')));
  assert.deepEqual(offenders, []);
});

/** A built file and every file it imports, statically or with import() (esbuild.js: `./chunk-<hash>.js`). */
function builtClosure(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, chunk] of readFileSync(path.join(root, 'dist', file), 'utf8').matchAll(
      /["'\.\/]+(chunk-\w+\.js)["']/g,
    ))
      visit(chunk);
  };
  visit(entry);
  return [...seen];
}

test('the bundled CLI contains no reference to the vscode module and runs without it', { timeout: 60_000 }, () => {
  // npm test builds once before the unit tests; rebuilding here would race with tests that run dist/cli.js.
  const cli = path.join(root, 'dist/cli.js');
  assert.ok(existsSync(cli), `${cli} is missing: run "npm run build" first (npm test does)`);
  const files = builtClosure('cli.js');
  assert.ok(files.length > 2, `the CLI's files: ${files.join(', ')}`);
  // Everything the CLI can load, the chunks it shares with the extension included.
  for (const file of files)
    assert.doesNotMatch(readFileSync(path.join(root, 'dist', file), 'utf8'), VSCODE_IMPORT, file);
  const help = execFileSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
  assert.match(help, /Usage: mcp-workbench/);
});

test('the core ships once, and neither side carries the other: the CLI no extension module, the extension no CLI one', () => {
  // npm test's build has source maps: each names the modules its file holds.
  // chunk-runtime.js holds only the CommonJS conversion's helpers (scripts/build-commonjs.js): no map, no module.
  const modulesOf = (file: string) =>
    file === 'chunk-runtime.js'
      ? []
      : (JSON.parse(readFileSync(path.join(root, 'dist', `${file}.map`), 'utf8')) as { sources: string[] }).sources
          .filter((source) => source.startsWith('../src/'))
          .map((source) => `// ${source.slice('../'.length)}`);
  const holder = new Map<string, string>();
  for (const file of readdirSync(path.join(root, 'dist')).filter((name) => name.endsWith('.js'))) {
    // A module esbuild wraps (evaluated on demand) is named twice in its file: before its hoisted names and its body.
    for (const module of new Set(modulesOf(file))) {
      assert.equal(holder.get(module), undefined, `${module} is in ${holder.get(module)} and in ${file}`);
      holder.set(module, file);
    }
  }
  assert.ok(
    holder.has('// src/protocol/client.ts') && holder.has('// src/workbench/config/mcpConfig.ts'),
    'the module comments are read',
  );
  const shared = holder.get('// src/protocol/client.ts') as string;
  assert.ok(shared.startsWith('chunk-'), `the client is in a chunk both load, not in ${shared}`);
  for (const [entry, foreign] of [
    ['cli.js', '// src/extension/'],
    ['extension.js', '// src/cli/'],
  ] as const) {
    const files = builtClosure(entry);
    assert.ok(files.includes(shared), `${entry} loads the client from ${shared}`);
    assert.deepEqual(
      files.flatMap(modulesOf).filter((module) => module.startsWith(foreign)),
      [],
      `${entry} loads no module of ${foreign.slice(3)}`,
    );
  }
});

/**
 * One ESLint for every probe, in this process: a process per probe (each loading the config, the TypeScript parser
 * and the plugins again) made this file the slowest of the unit suite. Returns one line per problem, rule first.
 */
let eslint: ESLint | undefined;
async function lint(filename: string, source: string): Promise<string> {
  eslint ??= new ESLint({ cwd: root });
  const [result] = await eslint.lintText(source, { filePath: path.join(root, filename) });
  const fatal = result.messages.find((message) => message.fatal);
  // A message without a rule (a parse error, a config that did not load) means ESLint could not judge the probe.
  if (fatal) throw new Error(`ESLint could not lint ${filename}: ${fatal.message}`);
  return result.messages.map((message) => `${message.ruleId ?? '(no rule)'}: ${message.message}`).join('\n');
}

test('the lint rule rejects a vscode import in src/protocol', { timeout: 60_000 }, async () => {
  const probe = 'import * as vscode from "vscode";\nexport const v = vscode;\n';
  assert.match(await lint('src/protocol/probe.ts', probe), /no-restricted-imports/);
});

// Each probe is an import that would break the layering: protocol < workbench < cli | extension, with Node-only
// code in node/ folders, and the folders of src/extension in their own order. The lint run must reject each one, and accept the allowed counterparts.
const layering: Array<{ file: string; spec: string; allowed: boolean }> = [
  { file: 'src/protocol/probe.ts', spec: 'node:fs', allowed: false },
  { file: 'src/protocol/transports/probe.ts', spec: 'child_process', allowed: false },
  { file: 'src/protocol/probe.ts', spec: './node/stdio', allowed: false },
  { file: 'src/protocol/probe.ts', spec: '../workbench/config/mcpConfig', allowed: false },
  { file: 'src/protocol/node/probe.ts', spec: '../../extension/extension', allowed: false },
  { file: 'src/workbench/config/probe.ts', spec: 'node:path', allowed: false },
  { file: 'src/workbench/config/probe.ts', spec: '../../protocol/node/stdio', allowed: false },
  { file: 'src/workbench/sampling/probe.ts', spec: '../../extension/features/sampling/settings', allowed: false },
  { file: 'src/workbench/sampling/probe.ts', spec: '../../cli/main', allowed: false },
  { file: 'src/cli/probe.ts', spec: '../extension/extension', allowed: false },
  { file: 'src/extension/probe.ts', spec: '../cli/main', allowed: false },
  { file: 'src/protocol/node/probe.ts', spec: 'node:child_process', allowed: true },
  { file: 'src/workbench/node/probe.ts', spec: '../../protocol/node/stdio', allowed: true },
  { file: 'src/workbench/config/probe.ts', spec: '../../protocol/client', allowed: true },
  { file: 'src/cli/probe.ts', spec: '../workbench/node/launch', allowed: true },
  // Inside src/extension: platform/ < features/<name>/ < extension.ts; a feature imports no other feature, whatever its
  // folder is called (a feature folder that does not exist yet proves the rule covers future ones) or how deep the file.
  { file: 'src/extension/features/prompts/probe.ts', spec: '../resources/resourceCommands', allowed: false },
  { file: 'src/extension/features/aBrandNewFeature/probe.ts', spec: '../tools/callTool', allowed: false },
  { file: 'src/extension/features/aBrandNewFeature/nested/probe.ts', spec: '../../tools/callTool', allowed: false },
  { file: 'src/extension/features/tools/probe.ts', spec: '../../extension', allowed: false },
  { file: 'src/extension/features/tools/probe.ts', spec: '../../testHooks', allowed: false },
  { file: 'src/extension/platform/servers/probe.ts', spec: '../../features/tools/callTool', allowed: false },
  { file: 'src/extension/platform/ui/probe.ts', spec: '../servers/serverManager', allowed: false },
  { file: 'src/extension/platform/config/probe.ts', spec: '../servers/serverController', allowed: false },
  { file: 'src/extension/features/tools/probe.ts', spec: '../../../cli/main', allowed: false },
  { file: 'src/extension/features/tools/probe.ts', spec: './callTool', allowed: true },
  { file: 'src/extension/features/aBrandNewFeature/nested/probe.ts', spec: '../own', allowed: true },
  { file: 'src/extension/features/tools/probe.ts', spec: '../../platform/servers/serverManager', allowed: true },
  { file: 'src/extension/platform/servers/probe.ts', spec: '../config/serverEntry', allowed: true },
  { file: 'src/extension/features/sampling/probe.ts', spec: '../../../workbench/sampling/coordinator', allowed: true },
];

for (const { file, spec, allowed } of layering) {
  test(`lint ${allowed ? 'accepts' : 'rejects'} importing ${spec} from ${file}`, { timeout: 60_000 }, async () => {
    const output = await lint(file, `import * as probe from '${spec}';\nexport const v = probe;\n`);
    const refused = /no-restricted-imports|walls\/feature-walls/;
    if (allowed) assert.doesNotMatch(output, refused);
    else assert.match(output, refused);
  });
}

// ---- no import cycle of values ------------------------------------------------------------------------------------

/** The files a source file imports as values (type-only imports and re-exports erase at build and cannot cycle). */
function valueImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(statement)) {
    const [, , typeOnly, clause, specifier] = match;
    if (typeOnly || !specifier.startsWith('.')) continue;
    // `import { type A, type B } from` erases too; `import { type A, b }` does not.
    const braces = /^\{([^}]*)\}$/.exec(clause.trim());
    if (
      braces &&
      braces[1]
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
        .every((part) => part.startsWith('type '))
    )
      continue;
    specifiers.push(specifier);
  }
  for (const match of source.matchAll(/^\s*import\s+['"](\.[^'"]+)['"]/gm)) specifiers.push(match[1]);
  return specifiers.flatMap((specifier) => {
    const base = path.resolve(path.dirname(file), specifier);
    const found = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => existsSync(candidate));
    return found ? [found] : [];
  });
}

/** Strongly connected components of more than one file (Tarjan), each as repository-relative paths, sorted. */
function importCycles(files: string[]): string[][] {
  const graph = new Map(files.map((file) => [file, valueImports(file)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (;;) {
      const member = stack.pop()!;
      onStack.delete(member);
      component.push(path.relative(root, member));
      if (member === file) break;
    }
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

test('the cycle finder finds a cycle of value imports and ignores type-only ones (positive control)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cycles-'));
  writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = () => b;\n");
  writeFileSync(path.join(dir, 'b.ts'), "import { a } from './a';\nexport const b = () => a;\n");
  writeFileSync(path.join(dir, 'c.ts'), "import type { d } from './d';\nexport const c = (x: d) => x;\n");
  writeFileSync(path.join(dir, 'd.ts'), "import { type c } from './c';\nexport type d = c;\n");
  const cycles = importCycles(['a.ts', 'b.ts', 'c.ts', 'd.ts'].map((name) => path.join(dir, name)));
  assert.equal(cycles.length, 1, JSON.stringify(cycles));
  assert.deepEqual(
    cycles[0].map((file) => path.basename(file)),
    ['a.ts', 'b.ts'],
  );
});

test('no import cycle of values anywhere in src/', () => {
  const cycles = importCycles(sourceFiles(path.join(root, 'src')));
  assert.deepEqual(
    cycles.map((cycle) => cycle.join(' <-> ')),
    [],
    'import cycles of values',
  );
});

// ---- the lint layer can fail ----------------------------------------------------------------------------------------

test(
  'ESLint runs at all: a probe with a known violation is reported (else every "accepts" probe above proves nothing)',
  { timeout: 60_000 },
  async () => {
    const output = await lint('src/protocol/probe.ts', 'export const same = (a: number, b: number) => a == b;\n');
    assert.match(output, /eqeqeq/, `ESLint did not report the known violation; its output: ${output || '(nothing)'}`);
  },
);

test(
  'common protocol code may not import vscode-jsonrpc/node (the common API is portable)',
  { timeout: 60_000 },
  async () => {
    assert.match(
      await lint(
        'src/protocol/jsonrpc/probe.ts',
        "import * as rpc from 'vscode-jsonrpc/node';\nexport const v = rpc;\n",
      ),
      /no-restricted-imports/,
    );
    assert.doesNotMatch(
      await lint('src/protocol/jsonrpc/probe.ts', "import * as rpc from 'vscode-jsonrpc';\nexport const v = rpc;\n"),
      /no-restricted-imports/,
    );
    assert.doesNotMatch(
      await lint('src/protocol/node/probe.ts', "import * as rpc from 'vscode-jsonrpc/node';\nexport const v = rpc;\n"),
      /no-restricted-imports/,
    );
  },
);

test('no file under src/ is over 500 lines (issue 16: files with one job)', () => {
  const long = sourceFiles(path.join(root, 'src'))
    .filter((file) => readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length > 500)
    .map((file) => path.relative(root, file));
  assert.deepEqual(long, [], 'files over 500 lines');
});
