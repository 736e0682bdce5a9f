import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const root = path.resolve(__dirname, '..', '..');
const VSCODE_IMPORT = /(?:from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\))/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

test('src/protocol, src/workbench and src/cli never import vscode', () => {
  const offenders = ['src/protocol', 'src/workbench', 'src/cli'].flatMap((dir) => sourceFiles(path.join(root, dir))).filter((file) =>
    VSCODE_IMPORT.test(readFileSync(file, 'utf8')),
  );
  assert.deepEqual(offenders, []);
});

test('the bundled CLI contains no reference to the vscode module and runs without it', { timeout: 60_000 }, () => {
  // npm test builds once before the unit tests; rebuilding here would race with tests that run dist/cli.js.
  const cli = path.join(root, 'dist/cli.js');
  assert.ok(existsSync(cli), `${cli} is missing: run "npm run build" first (npm test does)`);
  const bundle = readFileSync(cli, 'utf8');
  assert.doesNotMatch(bundle, VSCODE_IMPORT);
  const help = execFileSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
  assert.match(help, /Usage: mcp-workbench/);
});

function lint(filename: string, source: string): string {
  try {
    execFileSync(process.execPath, [path.join(root, 'node_modules/eslint/bin/eslint.js'), '--stdin', '--stdin-filename', filename], {
      cwd: root,
      input: source,
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? '');
  }
}

test('the lint rule rejects a vscode import in src/protocol', { timeout: 60_000 }, () => {
  const probe = 'import * as vscode from "vscode";\nexport const v = vscode;\n';
  assert.match(lint('src/protocol/probe.ts', probe), /no-restricted-imports/);
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
  { file: 'src/workbench/sampling/probe.ts', spec: '../../extension/sampling/settings', allowed: false },
  { file: 'src/workbench/sampling/probe.ts', spec: '../../cli/main', allowed: false },
  { file: 'src/cli/probe.ts', spec: '../extension/extension', allowed: false },
  { file: 'src/extension/probe.ts', spec: '../cli/main', allowed: false },
  { file: 'src/protocol/node/probe.ts', spec: 'node:child_process', allowed: true },
  { file: 'src/workbench/node/probe.ts', spec: '../../protocol/node/stdio', allowed: true },
  { file: 'src/workbench/config/probe.ts', spec: '../../protocol/client', allowed: true },
  { file: 'src/cli/probe.ts', spec: '../workbench/node/launch', allowed: true },
  // Inside src/extension: ui | webviews < config < servers < tools | resources | prompts | sampling | elicitation
  // < views < commands.ts / extension.ts; features do not import each other.
  { file: 'src/extension/servers/probe.ts', spec: '../views/serversTreeProvider', allowed: false },
  { file: 'src/extension/servers/probe.ts', spec: '../../extension/tools/callTool', allowed: false },
  { file: 'src/extension/config/probe.ts', spec: '../servers/serverController', allowed: false },
  { file: 'src/extension/ui/probe.ts', spec: '../servers/serverManager', allowed: false },
  { file: 'src/extension/prompts/probe.ts', spec: '../resources/resourceCommands', allowed: false },
  { file: 'src/extension/sampling/probe.ts', spec: '../elicitation/elicitationUi', allowed: false },
  { file: 'src/extension/views/probe.ts', spec: '../commands', allowed: false },
  { file: 'src/extension/tools/probe.ts', spec: '../../cli/main', allowed: false },
  { file: 'src/extension/servers/probe.ts', spec: '../config/serverEntry', allowed: true },
  { file: 'src/extension/views/probe.ts', spec: '../resources/resourceSubscriptions', allowed: true },
  { file: 'src/extension/sampling/probe.ts', spec: '../../workbench/sampling/coordinator', allowed: true },
];

for (const { file, spec, allowed } of layering) {
  test(`lint ${allowed ? 'accepts' : 'rejects'} importing ${spec} from ${file}`, { timeout: 60_000 }, () => {
    const output = lint(file, `import * as probe from '${spec}';\nexport const v = probe;\n`);
    if (allowed) assert.doesNotMatch(output, /no-restricted-imports/);
    else assert.match(output, /no-restricted-imports/);
  });
}
