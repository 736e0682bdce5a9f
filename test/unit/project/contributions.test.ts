/**
 * The first hour as package.json draws it (issue 23): a stopped server is not offered "Restart Server", the first
 * run has a walkthrough and a welcome that say what to do (in English and Simplified Chinese), `mcpWorkbench.serverEras`
 * takes the era where no schema flags it, and the entry keys of mcp.json are found for our own lens.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { serverKeyLocations } from '../../../src/extension/platform/config/serverKeys';
import { repoRoot } from '../../support/paths';

const root = repoRoot;
const read = <T>(file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as T;
interface Walkthrough {
  id: string;
  title: string;
  description: string;
  steps: { id: string; title: string; description: string; media: { altText?: string }; completionEvents: string[] }[];
}
interface PackageJson {
  contributes: {
    menus: Record<string, { command: string; when: string }[]>;
    walkthroughs: Walkthrough[];
    viewsWelcome: { view: string; contents: string }[];
    viewsContainers: { activitybar: { title: string }[] };
    commands: { command: string; category?: string }[];
    configuration: { properties: Record<string, { scope?: string; additionalProperties: { enum: string[] } }> };
  };
}
const pkg = read<PackageJson>('package.json');
const english = read<Record<string, string>>('package.nls.json');
const chinese = read<Record<string, string>>('package.nls.zh-cn.json');
const nls = (value: string) => /^%(.+)%$/.exec(value)?.[1];

/** Whether a menu's `when` clause of the form `view == X && viewItem =~ /re/` offers the item for `viewItem`. */
function offeredFor(when: string, viewItem: string): boolean {
  const match = /viewItem =~ \/(.+)\/$/.exec(when) ?? /viewItem == (\S+)$/.exec(when);
  assert.ok(match, `cannot read the when clause ${when}`);
  return when.includes('=~') ? new RegExp(match[1].replace(/\\\\/g, '\\')).test(viewItem) : match[1] === viewItem;
}

test('the context menu of a stopped server does not offer Restart Server; a running or failed one does', () => {
  const restart = pkg.contributes.menus['view/item/context'].filter(
    (item) => item.command === 'mcpWorkbench.restartServer',
  );
  assert.equal(restart.length, 1);
  assert.equal(offeredFor(restart[0].when, 'server.stopped'), false);
  for (const state of ['running', 'starting', 'error', 'signInRequired'])
    assert.equal(offeredFor(restart[0].when, `server.${state}`), true, state);
  const start = pkg.contributes.menus['view/item/context'].find((item) => item.command === 'mcpWorkbench.startServer');
  assert.ok(start && offeredFor(start.when, 'server.stopped'));
});

test('a walkthrough leads through open view → start → call → add, every text in English and Simplified Chinese', () => {
  const [walkthrough] = pkg.contributes.walkthroughs;
  assert.deepEqual(
    walkthrough.steps.map((step) => step.id),
    ['openServers', 'startServer', 'callTool', 'addServer'],
  );
  const keys = [
    walkthrough.title,
    walkthrough.description,
    ...walkthrough.steps.flatMap((step) => [step.title, step.description, step.media.altText ?? '']),
  ].map(nls);
  for (const key of keys) {
    assert.ok(key && english[key] && chinese[key], `walkthrough text ${key} is missing in one language`);
  }
  assert.ok(
    walkthrough.steps.every((step) => step.completionEvents.length > 0),
    'a step that never completes',
  );
  const start = walkthrough.steps.find((step) => step.id === 'startServer');
  assert.match(english[nls(start!.description)!], /Enter/);
});

test('the welcome of an empty Servers view offers Add, Import and the walkthrough, and says how to start a server', () => {
  const welcome = pkg.contributes.viewsWelcome.find((item) => item.view === 'mcpWorkbench.servers');
  const text = english[nls(welcome!.contents)!];
  for (const command of ['mcpWorkbench.addServer', 'mcpWorkbench.importServers', 'workbench.action.openWalkthrough'])
    assert.ok(text.includes(`command:${command}`), command);
  assert.match(text, /press Enter \(or ▷/);
  assert.ok(chinese[nls(welcome!.contents)!].includes('command:workbench.action.openWalkthrough'));
  // The activity-bar container is labelled (its title is the hover label).
  assert.equal(english[nls(pkg.contributes.viewsContainers.activitybar[0].title)!], 'MCP Workbench');
});

test('mcpWorkbench.serverEras takes the eras of the mcp.json schema, per server name, per folder', () => {
  const setting = pkg.contributes.configuration.properties['mcpWorkbench.serverEras'];
  const schema = read<{ definitions: { era: { enum: string[]; description: string } } }>('schemas/mcp.schema.json');
  assert.deepEqual(setting.additionalProperties.enum, schema.definitions.era.enum);
  assert.equal(setting.scope, 'resource');
  assert.match(schema.definitions.era.description, /Property era is not allowed.*mcpWorkbench\.serverEras/);
});

test('the server keys of an mcp.json with comments and trailing commas, where our lens goes', () => {
  const text =
    '{\n  // mine\n  "servers": {\n    "everything": { "command": "npx", },\n    "remote": { "url": "https://x" },\n  },\n  "inputs": [],\n}';
  const keys = serverKeyLocations(text);
  assert.deepEqual(
    keys.map((key) => key.name),
    ['everything', 'remote'],
  );
  assert.equal(text.slice(keys[0].offset, keys[0].offset + keys[0].length), '"everything"');
  assert.deepEqual(serverKeyLocations('{ "servers": '), []);
});

test('the README names the view and the palette prefix as VS Code shows them: "MCP Workbench", never VS Code\'s own "MCP:"', () => {
  // First-hour report 1.6: the README said the "MCP" view and "type MCP:", which also lists VS Code's own MCP commands.
  const container = english[nls(pkg.contributes.viewsContainers.activitybar[0].title) ?? ''];
  assert.equal(container, 'MCP Workbench');
  const categories = new Set(
    pkg.contributes.commands.map((command) =>
      command.category ? (english[nls(command.category) ?? ''] ?? command.category) : undefined,
    ),
  );
  assert.deepEqual([...categories], ['MCP Workbench'], 'every command is under the MCP Workbench category');
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const firstSteps = readme.slice(0, readme.indexOf('\n## ', readme.indexOf('\n## ') + 1));
  assert.match(firstSteps, /Open the \*\*MCP Workbench\*\* view/);
  assert.match(firstSteps, /type `MCP Workbench:`/);
  assert.doesNotMatch(
    firstSteps.replace(/\(VS Code's own MCP commands are under `MCP:`\)/, ''),
    /type `MCP:`/,
    "the first steps send no one to VS Code's MCP: commands",
  );
});

// VS Code 1.100's allowed categories (the `categories` enum of its extension manifest schema): any other value is
// dropped by the Marketplace, and "Other" alone hides the extension from every category people browse.
const MARKETPLACE_CATEGORIES = [
  'AI',
  'Azure',
  'Chat',
  'Data Science',
  'Debuggers',
  'Extension Packs',
  'Education',
  'Formatters',
  'Keymaps',
  'Language Packs',
  'Linters',
  'Machine Learning',
  'Notebooks',
  'Programming Languages',
  'SCM Providers',
  'Snippets',
  'Testing',
  'Themes',
  'Visualization',
  'Other',
];

test('the Marketplace finds the extension under AI and Testing and by "mcp", not only under "Other"', () => {
  const manifest = read<{ categories?: string[]; keywords?: string[] }>('package.json');
  const categories = manifest.categories ?? [];
  for (const category of categories)
    assert.ok(MARKETPLACE_CATEGORIES.includes(category), `unknown category ${category}`);
  assert.ok(categories.includes('AI') && categories.includes('Testing'), `categories: ${categories.join(', ')}`);
  assert.ok(!categories.includes('Other'), '"Other" is for extensions that fit no category');
  const keywords = manifest.keywords ?? [];
  // The Marketplace keeps at most 30 keywords (vsce refuses more).
  assert.ok(keywords.length > 0 && keywords.length <= 30, `${keywords.length} keywords`);
  for (const word of ['mcp', 'model context protocol']) assert.ok(keywords.includes(word), `keyword ${word}`);
});
