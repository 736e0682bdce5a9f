/**
 * Conventional route for machines with a desktop VS Code: runs the integration suites through
 * @vscode/test-electron in that VS Code, with this repository as the extension under development.
 *
 *   VSCODE_EXECUTABLE_PATH=/path/to/code node --import tsx test/integration/runTest.ts
 *
 * (On macOS the executable is ".../Visual Studio Code.app/Contents/MacOS/Electron"; on Linux the
 * "code" binary of an unpacked VS Code, not the shell wrapper script.) It never downloads VS Code: it
 * refuses to run without VSCODE_EXECUTABLE_PATH. Where only code-server is available, use
 * test/integration/integration.test.ts instead.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { INTEGRATION_DIR, REPO_ROOT, bundleForExtensionHost, writeWorkspace } from './support';

async function main(): Promise<number> {
  const executable = process.env.VSCODE_EXECUTABLE_PATH;
  if (!executable) {
    console.error(
      'runTest: set VSCODE_EXECUTABLE_PATH to a desktop VS Code executable (e.g. /usr/share/code/code).\n' +
        'This runner does not download VS Code. Without one, run the code-server route: ' +
        'node --import tsx --test test/integration/integration.test.ts',
    );
    return 1;
  }
  if (!fs.existsSync(executable)) {
    console.error(`runTest: VSCODE_EXECUTABLE_PATH=${executable} does not exist`);
    return 1;
  }

  // The extension under development runs from dist/extension.js: the test build, which has the hooks the suites use.
  execFileSync('npm', ['run', 'build:test'], { cwd: REPO_ROOT, stdio: 'inherit' });
  // Inside the extension folder (out/ is git- and lint-ignored), so VS Code attributes the bundle's
  // require('vscode') to the extension under development.
  const testsBundle = bundleForExtensionHost(
    path.join(INTEGRATION_DIR, 'electronIndex.ts'),
    path.join(REPO_ROOT, 'out', 'integration', 'electronIndex.js'),
  );

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-integ-'));
  const workspace = path.join(tmp, 'workspace');
  writeWorkspace(workspace);
  try {
    return await runTests({
      vscodeExecutablePath: executable,
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: testsBundle,
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        '--user-data-dir',
        path.join(tmp, 'user-data'),
        '--extensions-dir',
        path.join(tmp, 'extensions'),
      ],
    });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`runTest: the integration tests failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
