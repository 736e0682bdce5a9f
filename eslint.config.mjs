import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The layers of src/, bottom to top: protocol (the MCP client) < workbench (host-neutral application logic
// shared by the CLI and the extension) < cli | extension. An import may only run downwards. Inside protocol
// and workbench, Node-only code lives in a `node/` folder; everything else needs no Node built-in (only
// `fetch`, streams and timers), and does not import the `node/` folder either.
const nodeBuiltins = [...new Set(builtinModules.flatMap((name) => [name, `node:${name}`]))];

const vscode = {
  name: 'vscode',
  message: 'Only src/extension may import vscode; host services come in through interfaces.',
};
// Matched as whole specifiers: a gitignore-style group would also match any path with a segment named like a built-in
// (`../extensions/events/…`, the Events extension's folder, matched `events`).
const builtins = {
  regex: `^(?:${nodeBuiltins.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`,
  message: 'Node built-ins belong in a node/ folder of this layer.',
};
const nodeFolder = {
  group: ['./node/*', '**/node/*', '../node', './node'],
  message: 'Code outside node/ must not depend on Node-only code.',
};
// vscode-jsonrpc's /node entry installs Node's runtime layer: common protocol code uses its common API (jsonrpc/runtime.ts).
const jsonRpcNode = {
  name: 'vscode-jsonrpc/node',
  message: 'Common protocol code uses the common vscode-jsonrpc API; Node-only code lives in protocol/node.',
};
const above = (layers, why) => ({ group: layers.flatMap((l) => [`**/${l}/**`, `**/${l}`]), message: why });

const rule = (paths, patterns) => ({ 'no-restricted-imports': ['error', { paths, patterns }] });
const upFromProtocol = above(
  ['workbench', 'cli', 'extension'],
  'The protocol client is the bottom layer: it imports nothing above it.',
);
const upFromWorkbench = above(
  ['cli', 'extension'],
  'Workbench logic is shared by the CLI and the extension: it imports neither.',
);
const upFromCli = above(['extension'], 'The CLI must not depend on the extension.');
const upFromExtension = above(['cli'], 'The extension must not depend on the CLI.');

// Inside src/extension: `platform/` (what every feature may use) < `features/<name>/` (one folder per feature) <
// the composition root (extension.ts, testHooks.ts). A feature imports only the platform, the workbench, the protocol
// and its own folder: what it needs of another feature comes through its context's services. The rule resolves each
// relative import, so it holds for every feature folder, present and future, and for folders nested inside one.
const extensionRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), 'src', 'extension');
const featureWalls = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      otherFeature:
        'features/{{from}} imports features/{{to}}: features never import each other; ask for what it offers through context.services (platform/services.ts), or move the shared piece into platform/.',
      compositionRoot:
        '{{from}} imports the composition root ({{to}}): only extension.ts composes the platform and the features.',
      platformUp: 'platform/ imports {{to}}: the platform is what features build on, it never imports a feature.',
    },
  },
  create(context) {
    const file = context.filename;
    const relative = path.relative(extensionRoot, file).split(path.sep);
    if (relative[0] === '..' || relative.length < 2) return {};
    const area = relative[0];
    const feature = area === 'features' ? relative[1] : undefined;
    const check = (node, specifier) => {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = path.relative(extensionRoot, path.resolve(path.dirname(file), specifier)).split(path.sep);
      if (target[0] === '..') return; // another layer of src/: the layer rules below judge it
      const [targetArea, targetFeature] = target;
      const isRoot = target.length === 1;
      if (area === 'platform') {
        if (targetArea !== 'platform')
          context.report({ node, messageId: 'platformUp', data: { to: target.join('/') } });
        return;
      }
      if (isRoot)
        context.report({
          node,
          messageId: 'compositionRoot',
          data: { from: relative.join('/'), to: target.join('/') },
        });
      else if (targetArea === 'features' && targetFeature !== feature)
        context.report({ node, messageId: 'otherFeature', data: { from: feature, to: targetFeature } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
const walls = { rules: { 'feature-walls': featureWalls } };

// Inside the platform, bottom to top: ui | webviews < config < auth < servers (and the rest of platform/).
const platformLayer = (folder, forbidden, why) => ({
  files: [`src/extension/platform/${folder}/**/*.ts`],
  rules: rule([], [upFromExtension, { regex: `^\\.\\./(?:${forbidden.join('|')})(?:/|$)`, message: why }]),
});
const platformLayers = [
  platformLayer(
    'ui',
    ['webviews', 'config', 'auth', 'servers', 'history', 'apps', 'shared'],
    'platform/ui is the bottom of the platform: it imports nothing from its other folders.',
  ),
  platformLayer(
    'webviews',
    ['ui', 'config', 'auth', 'servers', 'history', 'apps', 'shared'],
    'platform/webviews is the bottom of the platform: it imports nothing from its other folders.',
  ),
  platformLayer(
    'config',
    ['auth', 'servers', 'history', 'apps', 'shared'],
    'platform/config sits below sign-in and server control: pass in what it needs instead.',
  ),
  platformLayer(
    'auth',
    ['servers', 'history', 'apps', 'shared'],
    'platform/auth (OAuth sign-in) sits below server control: pass in what it needs instead.',
  ),
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
  {
    files: ['src/protocol/**/*.ts'],
    ignores: ['src/protocol/node/**'],
    rules: rule([vscode, jsonRpcNode], [builtins, nodeFolder, upFromProtocol]),
  },
  { files: ['src/protocol/node/**/*.ts'], rules: rule([vscode], [upFromProtocol]) },
  {
    files: ['src/workbench/**/*.ts'],
    ignores: ['src/workbench/node/**'],
    rules: rule([vscode], [builtins, nodeFolder, upFromWorkbench]),
  },
  { files: ['src/workbench/node/**/*.ts'], rules: rule([vscode], [upFromWorkbench]) },
  { files: ['src/cli/**/*.ts'], rules: rule([vscode], [upFromCli]) },
  {
    files: ['src/extension/**/*.ts'],
    plugins: { walls },
    rules: { ...rule([], [upFromExtension]), 'walls/feature-walls': 'error' },
  },
  ...platformLayers,
);
