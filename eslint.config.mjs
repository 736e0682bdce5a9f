import { builtinModules } from 'node:module';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The layers of src/, bottom to top: protocol (the MCP client) < workbench (host-neutral application logic
// shared by the CLI and the extension) < cli | extension. An import may only run downwards. Inside protocol
// and workbench, Node-only code lives in a `node/` folder; everything else needs no Node built-in (only
// `fetch`, streams and timers), and does not import the `node/` folder either.
const nodeBuiltins = [...new Set(builtinModules.flatMap((name) => [name, `node:${name}`]))];

const vscode = { name: 'vscode', message: 'Only src/extension may import vscode; host services come in through interfaces.' };
const builtins = { group: nodeBuiltins, message: 'Node built-ins belong in a node/ folder of this layer.' };
const nodeFolder = { group: ['./node/*', '**/node/*', '../node', './node'], message: 'Code outside node/ must not depend on Node-only code.' };
// vscode-jsonrpc's /node entry installs Node's runtime layer: common protocol code uses its common API (jsonrpc/runtime.ts).
const jsonRpcNode = { name: 'vscode-jsonrpc/node', message: 'Common protocol code uses the common vscode-jsonrpc API; Node-only code lives in protocol/node.' };
const above = (layers, why) => ({ group: layers.flatMap((l) => [`**/${l}/**`, `**/${l}`]), message: why });

const rule = (paths, patterns) => ({ 'no-restricted-imports': ['error', { paths, patterns }] });
const upFromProtocol = above(['workbench', 'cli', 'extension'], 'The protocol client is the bottom layer: it imports nothing above it.');
const upFromWorkbench = above(['cli', 'extension'], 'Workbench logic is shared by the CLI and the extension: it imports neither.');
const upFromCli = above(['extension'], 'The CLI must not depend on the extension.');
const upFromExtension = above(['cli'], 'The extension must not depend on the CLI.');

// Inside src/extension, bottom to top: ui | webviews (shared low-level UI helpers) < config < auth (OAuth sign-in:
// SecretStorage, consent, the Accounts provider) < servers (lifecycle) <
// the features tools | resources | prompts | sampling | elicitation < views (the Servers tree) < the top-level
// files (commands.ts, extension.ts, testHooks.ts). A folder imports only its own files and the layers below it;
// the features do not import each other (what two need moves down, or comes in as a parameter).
const extensionFeatures = ['tools', 'resources', 'prompts', 'sampling', 'elicitation', 'history'];
const extensionTop = ['commands', 'commandIds', 'extension', 'testHooks'];
const extensionLayer = (folder, forbidden, why) => ({
  files: [`src/extension/${folder}/**/*.ts`],
  rules: rule([], [upFromExtension, { regex: `^\\.\\./(?:\\.\\./extension/)?(?:${forbidden.join('|')})(?:/|$)`, message: why }]),
});
const extensionLayers = [
  extensionLayer('ui', ['webviews', 'config', 'auth', 'servers', ...extensionFeatures, 'views', ...extensionTop], 'ui/ is the bottom layer of the extension: it imports nothing from the other folders.'),
  extensionLayer('webviews', ['ui', 'config', 'auth', 'servers', ...extensionFeatures, 'views', ...extensionTop], 'webviews/ is the bottom layer of the extension: it imports nothing from the other folders.'),
  extensionLayer('config', ['auth', 'servers', ...extensionFeatures, 'views', ...extensionTop], 'config/ sits below server control and the features: pass in what it needs instead.'),
  extensionLayer('auth', ['servers', ...extensionFeatures, 'views', ...extensionTop], 'auth/ (OAuth sign-in) sits below server control: pass in what it needs instead.'),
  extensionLayer('servers', [...extensionFeatures, 'views', ...extensionTop], 'servers/ (lifecycle) sits below the features and the tree: pass in what it needs instead.'),
  ...extensionFeatures.map((feature) =>
    extensionLayer(feature, [...extensionFeatures.filter((other) => other !== feature), 'views', ...extensionTop], `Features do not import each other or the tree: move the shared piece down (ui/, servers/) or pass it in.`),
  ),
  extensionLayer('views', extensionTop, 'views/ (the Servers tree) imports the features, not the composition root.'),
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', '.vscode-test/**', 'out/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  {
    // The webview scripts: plain browser JavaScript (no modules, no bundler) with VS Code's webview global;
    // `tsc -p media` type-checks them, this catches names that exist nowhere.
    files: ['media/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser, acquireVsCodeApi: 'readonly' } },
    rules: { 'no-undef': 'error', eqeqeq: ['error', 'always', { null: 'ignore' }] },
  },
  { files: ['src/protocol/**/*.ts'], ignores: ['src/protocol/node/**'], rules: rule([vscode, jsonRpcNode], [builtins, nodeFolder, upFromProtocol]) },
  { files: ['src/protocol/node/**/*.ts'], rules: rule([vscode], [upFromProtocol]) },
  { files: ['src/workbench/**/*.ts'], ignores: ['src/workbench/node/**'], rules: rule([vscode], [builtins, nodeFolder, upFromWorkbench]) },
  { files: ['src/workbench/node/**/*.ts'], rules: rule([vscode], [upFromWorkbench]) },
  { files: ['src/cli/**/*.ts'], rules: rule([vscode], [upFromCli]) },
  { files: ['src/extension/**/*.ts'], rules: rule([], [upFromExtension]) },
  ...extensionLayers,
);
