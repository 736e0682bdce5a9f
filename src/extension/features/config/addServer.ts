import * as vscode from 'vscode';
import { uniqueName } from '../../../workbench/node/importers';
import { errorMessage } from '../../../protocol/errors';
import { parseHeaderLines, splitCommandLine } from '../../../workbench/config/commandLine';
import type { InputEntry } from '../../../workbench/config/jsoncEdit';
import type { ServerCard } from '../../../workbench/serverCards/cards';
import type { SuggestedHeader } from '../../../workbench/serverCards/compare';
import type { CatalogChoice } from './catalogPick';
import { addServers, takenInputIds, takenNames, targetFromArgument } from '../../platform/config/configTargets';
import {
  addToDotMcp,
  dotMcpTakenNames,
  dotMcpTargetFromArgument,
  pickAddTarget,
  type AddTarget,
} from '../../platform/config/addTargets';
import { preferredAddFile } from '../../platform/config/addTargetChoice';
import { showError } from '../../platform/ui/coreErrors';

/**
 * What a caller may fill in ahead of time (automation, tests); anything missing is asked for.
 * `target` is "user", a workspace folder's (or its mcp.json's) URI string, or a `.mcp.json`'s URI string.
 */
interface AddServerArguments {
  transport?: 'stdio' | 'http' | 'catalog';
  /** With transport "catalog": the domain whose catalog to read. */
  domain?: string;
  commandLine?: string;
  url?: string;
  headers?: Record<string, string>;
  name?: string;
  target?: string;
  /** Read the server's card before adding (HTTP): true reads it without asking, false skips the question. */
  readCard?: boolean;
}

/** MCP Workbench: Add Server… — stdio (a command line) or HTTP (a URL and optional headers), a unique name, and where to write it. */
export async function addServerCommand(argument: unknown, state: vscode.Memento): Promise<void> {
  const given = isAddServerArguments(argument) ? argument : {};
  try {
    await addServer(given, state);
  } catch (error) {
    void showError(error, {
      words: (reason) => vscode.l10n.t('Could not add the MCP server: {0}', reason),
      logAs: 'Could not add the MCP server',
    });
  }
}

async function addServer(given: AddServerArguments, state: vscode.Memento): Promise<void> {
  const title = vscode.l10n.t('Add MCP Server');
  const transport = given.transport ?? (await pickTransport(title));
  if (!transport) return;
  const made = await entryFor(transport, title, given);
  if (!made) return;
  const { entry } = made;
  const target: AddTarget | undefined =
    targetFromArgument(given.target) ??
    dotMcpTargetFromArgument(given.target) ??
    (await pickAddTarget(title, preferredAddFile(given.name ?? suggestName(entry), entry)));
  if (!target) return;
  const taken = target.kind === 'dotMcp' ? await dotMcpTakenNames(target) : await takenNames(target);
  const name = given.name ?? (await askName(title, suggestName(entry), taken));
  if (!name) return;
  if (taken.some((used) => used.toLowerCase() === name.toLowerCase()))
    throw new Error(vscode.l10n.t('A server named "{0}" already exists there.', name));
  // The card it was added from waits for its first connection (compareAfterAdd), kept before the file is written
  // so a server that starts as soon as it is loaded finds it; forgotten again if the write fails.
  const cards = made.card ? await import('./serverCard.js') : undefined;
  const identity = cards?.addedServerIdentity(target, name);
  if (cards && made.card && identity) await cards.rememberAddedCard(state, identity, made.card);
  try {
    if (target.kind === 'dotMcp') await addToDotMcp(target, name, entry);
    else {
      // An input already declared there (the same host's same header, added before) is used as it is.
      const declared = new Set(await takenInputIds(target));
      const inputs = made.inputs.filter((input) => !declared.has(input.id));
      await addServers(target, [{ name, entry, ...(inputs.length > 0 ? { inputs } : {}) }]);
    }
  } catch (error) {
    if (cards && identity) await cards.forgetAddedCard(state, identity);
    throw error;
  }
}

interface MadeEntry {
  entry: object;
  /** `inputs` declarations the entry's `${input:…}` refer to (from a Server Card's headers). */
  inputs: InputEntry[];
  /** The Server Card the person read before adding it (HTTP), compared at its first connection. */
  card?: ServerCard;
}

async function entryFor(
  transport: 'stdio' | 'http' | 'catalog',
  title: string,
  given: AddServerArguments,
): Promise<MadeEntry | undefined> {
  switch (transport) {
    case 'stdio': {
      const entry = await stdioEntry(title, given);
      return entry ? { entry, inputs: [] } : undefined;
    }
    case 'http':
      return httpEntry(title, given);
    case 'catalog': {
      // The catalog, the server's card and its endpoint (SEP-2127); the code loads only when this is picked.
      const chosen = await (await import('./catalogPick.js')).pickFromCatalog(title, given.domain);
      return chosen ? httpEntry(title, given, chosen) : undefined;
    }
    default: {
      const exhaustive: never = transport;
      return exhaustive;
    }
  }
}

async function pickTransport(title: string): Promise<'stdio' | 'http' | 'catalog' | undefined> {
  const picked = await vscode.window.showQuickPick(
    [
      {
        label: '$(terminal) ' + vscode.l10n.t('Command (stdio)'),
        detail: vscode.l10n.t('Run a local program, e.g. npx -y @modelcontextprotocol/server-everything'),
        transport: 'stdio' as const,
      },
      {
        label: '$(globe) ' + vscode.l10n.t('HTTP'),
        detail: vscode.l10n.t('Connect to a server URL (Streamable HTTP, falling back to SSE)'),
        transport: 'http' as const,
      },
      {
        label: '$(library) ' + vscode.l10n.t("From a Domain's Catalog"),
        detail: vscode.l10n.t(
          'The servers a domain lists in its MCP catalog (/.well-known/mcp/catalog.json), each with its Server Card',
        ),
        transport: 'catalog' as const,
      },
    ],
    { title, placeHolder: vscode.l10n.t('How does the server run?'), ignoreFocusOut: true },
  );
  return picked?.transport;
}

/** The value the command was given, else what the person types (undefined when they cancel). */
async function givenOrAsked(
  given: string | undefined,
  box: Omit<vscode.InputBoxOptions, 'ignoreFocusOut'>,
): Promise<string | undefined> {
  return given ?? (await vscode.window.showInputBox({ ...box, ignoreFocusOut: true }));
}

async function stdioEntry(title: string, given: AddServerArguments): Promise<object | undefined> {
  const line = await givenOrAsked(given.commandLine, {
    title,
    prompt: vscode.l10n.t(
      'The command line that starts the server. Quotes group words; nothing is run through a shell.',
    ),
    placeHolder: 'npx -y @modelcontextprotocol/server-everything',
    validateInput: (value) => validateCommandLine(value),
  });
  if (line === undefined) return undefined;
  const [command, ...args] = splitCommandLine(line);
  if (!command) throw new Error(vscode.l10n.t('The command line is empty.'));
  return { type: 'stdio', command, args };
}

/** An HTTP entry from the URL given or typed, or (`chosen`) the endpoint a catalog's card offered. */
async function httpEntry(
  title: string,
  given: AddServerArguments,
  chosen?: CatalogChoice,
): Promise<MadeEntry | undefined> {
  const url =
    chosen?.url ??
    (await givenOrAsked(given.url, {
      title,
      prompt: vscode.l10n.t('The server URL'),
      placeHolder: 'https://example.com/mcp',
      validateInput: (value) =>
        /^https?:\/\/\S+$/.test(value.trim()) ? undefined : vscode.l10n.t('Enter an http:// or https:// URL.'),
    }));
  if (url === undefined) return undefined;
  // The Server Card step (SEP-2127): asked when the person typed the URL; its module loads only then.
  let suggested: SuggestedHeader[] = chosen?.headers ?? [];
  let card: ServerCard | undefined = chosen?.card;
  if (!chosen && given.readCard !== false && (given.readCard === true || given.url === undefined)) {
    const { askToReadCard, reviewCardBeforeAdding } = await import('./serverCard.js');
    const read = given.readCard ?? (await askToReadCard(title, url.trim()));
    if (read === undefined) return undefined;
    if (read) {
      const reviewed = await reviewCardBeforeAdding(url.trim());
      if (!reviewed) return undefined;
      suggested = reviewed.headers;
      card = reviewed.card;
    }
  }
  let headers = given.headers;
  if (!headers && (given.url === undefined || chosen)) {
    const text = await vscode.window.showInputBox({
      title,
      prompt: vscode.l10n.t(
        'Optional headers, "Name: value" separated by ";". Use ${input:id} for secrets so they are not written to the file.',
      ),
      placeHolder: 'Authorization: Bearer ${input:token}',
      // The headers the server's card says it needs, each value an input asked for at the first start.
      value: suggested.map((header) => `${header.name}: \${input:${header.inputId}}`).join('; '),
      ignoreFocusOut: true,
      validateInput: (value) => {
        try {
          parseHeaderLines(value);
          return undefined;
        } catch (error) {
          return errorMessage(error);
        }
      },
    });
    if (text === undefined) return undefined;
    headers = parseHeaderLines(text);
  }
  const values = Object.values(headers ?? {});
  const inputs = suggested
    .filter((header) => values.some((value) => value.includes(`\${input:${header.inputId}}`)))
    .map((header): InputEntry => ({
      type: 'promptString',
      id: header.inputId,
      description: vscode.l10n.t('The {0} header for {1}', header.name, url.trim()),
      ...(header.secret ? { password: true } : {}),
    }));
  return {
    entry: {
      type: chosen?.type === 'sse' ? 'sse' : 'http',
      url: url.trim(),
      ...(headers && Object.keys(headers).length > 0 ? { headers } : {}),
    },
    inputs,
    ...(card ? { card } : {}),
  };
}

async function askName(title: string, suggestion: string, taken: readonly string[]): Promise<string | undefined> {
  const name = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('A unique name for the server'),
    value: uniqueName(suggestion, taken),
    ignoreFocusOut: true,
    validateInput: (value) => {
      if (value.trim() === '') return vscode.l10n.t('The name cannot be empty.');
      if (taken.some((used) => used.toLowerCase() === value.trim().toLowerCase()))
        return vscode.l10n.t('A server named "{0}" already exists there.', value.trim());
      return undefined;
    },
  });
  return name?.trim();
}

/** The package or host name: "server-everything" for npx -y @modelcontextprotocol/server-everything. */
function suggestName(entry: object): string {
  const record = entry as { command?: string; args?: string[]; url?: string };
  if (record.url) {
    try {
      return new URL(record.url).hostname.split('.').filter((part) => part !== 'www')[0] ?? 'server';
    } catch {
      return 'server';
    }
  }
  const words = [record.command ?? '', ...(record.args ?? [])].filter((word) => !word.startsWith('-'));
  const launchers = new Set([
    'npx',
    'uvx',
    'pnpm',
    'dlx',
    'bunx',
    'node',
    'python',
    'python3',
    'uv',
    'run',
    'docker',
    'deno',
  ]);
  const meaningful = words.find((word) => !launchers.has(word.split(/[\\/]/).pop() ?? word)) ?? words[0] ?? 'server';
  const base = meaningful.split(/[\\/]/).pop() ?? meaningful;
  // "server-everything@1.2" → "server-everything"; "index.js" → "index".
  return base.replace(/@.*$/, '').replace(/\.(m?js|py|exe)$/, '') || 'server';
}

function validateCommandLine(value: string): string | undefined {
  try {
    return splitCommandLine(value).length === 0
      ? vscode.l10n.t('Enter the command that starts the server.')
      : undefined;
  } catch (error) {
    return errorMessage(error);
  }
}

function isAddServerArguments(value: unknown): value is AddServerArguments {
  return typeof value === 'object' && value !== null && !('controller' in value);
}
