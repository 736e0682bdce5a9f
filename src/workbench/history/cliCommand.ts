import { isSecretKey, MASK } from '../secrets';
import type { HistoryOperation } from './historyLog';

/**
 * How the CLI reaches the server: through the same mcp.json (with the ids of the `${input:…}` it uses), or by its
 * command line (with its env) or URL (with its headers), as written in the configuration (variables unresolved).
 */
export type CliTarget =
  | { kind: 'config'; configPath: string; serverName: string; inputIds?: readonly string[] }
  | {
      kind: 'stdio';
      command: string;
      args: readonly string[];
      cwd?: string;
      env?: Readonly<Record<string, string | null>>;
    }
  | { kind: 'url'; url: string; headers?: Readonly<Record<string, string>> };

/**
 * One shell word built from pieces: literal text (single-quoted) and placeholders the person fills from their
 * environment, written `${NAME:?…}` so the line runs as it is once NAME is set and otherwise stops, naming it.
 */
type Piece = { kind: 'text'; text: string } | { kind: 'variable'; name: string; hint: string };
type Word = readonly Piece[];

/**
 * The CLI command that repeats an operation (src/cli/args.ts), or undefined for what the CLI cannot repeat
 * (sampling and elicitation are the server asking us). Words are quoted for a POSIX shell. It runs as it is: no
 * secret is written into it and none is replaced by mask characters. A secret becomes a placeholder for an
 * environment variable the person sets (a masked argument, a password input, a secret env value, header or URL
 * query parameter), and `${env:X}` in the configuration reads X from the same environment.
 */
export function cliCommand(
  operation: HistoryOperation,
  target: CliTarget,
  program = 'node dist/cli.js',
): string | undefined {
  const words = operationWords(operation);
  if (!words) return undefined;
  return [program, ...[...words, ...targetWords(target)].map(renderWord)].join(' ');
}

/** The CLI's `events` verb for each delivery mode (src/cli/events.ts). */
const EVENTS_VERBS = { poll: 'poll', push: 'stream', webhook: 'subscribe' } as const;

function operationWords(operation: HistoryOperation): Word[] | undefined {
  switch (operation.kind) {
    case 'tool':
      return [text('call'), text(operation.toolName), argumentsWord(operation.arguments)];
    case 'resource':
      return [text('read'), text(operation.uri)];
    case 'prompt':
      return [text('prompt'), text(operation.promptName), argumentsWord(operation.arguments)];
    case 'events':
      return [
        text('events'),
        text(EVENTS_VERBS[operation.mode]),
        text(operation.eventName),
        text('--args'),
        argumentsWord(operation.arguments),
      ];
    case 'sampling':
    case 'elicitation':
    case 'conversation':
      return undefined;
    default: {
      const exhaustive: never = operation;
      return exhaustive;
    }
  }
}

function targetWords(target: CliTarget): Word[] {
  switch (target.kind) {
    case 'config':
      return [
        text('--config'),
        text(target.configPath),
        text('--server'),
        text(target.serverName),
        ...(target.inputIds ?? []).flatMap((id) => [
          text('--input'),
          [{ kind: 'text', text: `${id}=` } as const, inputVariable(id)],
        ]),
      ];
    case 'stdio':
      return [
        text('--stdio'),
        // One word holding the command line, which the CLI splits; a variable inside it is filled by the shell.
        joinWords([target.command, ...target.args].map((word) => withVariables(word, 'MCP_ARG'))),
        ...(target.cwd ? [text('--cwd'), withVariables(target.cwd, 'MCP_CWD')] : []),
        ...Object.entries(target.env ?? {}).flatMap(([name, value]) =>
          value === null
            ? []
            : [text('--env'), [{ kind: 'text', text: `${name}=` } as const, ...secretOr(name, value, name)]],
        ),
      ];
    case 'url':
      return [
        text('--url'),
        urlWord(target.url),
        ...Object.entries(target.headers ?? {}).flatMap(([name, value]) => [
          text('--header'),
          [{ kind: 'text', text: `${name}: ` } as const, ...secretOr(name, value, `MCP_HEADER_${variableName(name)}`)],
        ]),
      ];
    default: {
      const exhaustive: never = target;
      return exhaustive;
    }
  }
}

/** Arguments as JSON; a value History masked becomes a placeholder named after its key (never `••••`). */
function argumentsWord(args: unknown): Word {
  const placeholders: Piece[] = [];
  const json = JSON.stringify(args, (key, value: unknown) => {
    if (typeof value !== 'string' || !value.includes(MASK)) return value;
    placeholders.push({
      kind: 'variable',
      name: `MCP_ARG_${variableName(key || 'value')}`,
      hint: `the value of argument ${key}`,
    });
    return PLACEHOLDER;
  });
  const parts = (json ?? 'null').split(JSON.stringify(PLACEHOLDER));
  const word: Piece[] = [];
  parts.forEach((part, index) => {
    // The placeholder stands for a JSON string: the quotes stay literal around the variable.
    word.push({ kind: 'text', text: index === 0 ? part : `"${part}` });
    if (index < placeholders.length) word.push({ kind: 'text', text: '"' }, placeholders[index]);
  });
  return word;
}

/** A sentinel that no argument value contains (the mask character starts it). */
const PLACEHOLDER = `${MASK}\u0000placeholder\u0000`;

/** A value written under a secret-looking name is never copied: a placeholder named `variable` takes its place. */
function secretOr(name: string, value: string, variable: string): Piece[] {
  if (isSecretKey(name) && !/\$\{(env|input):/.test(value)) {
    const scheme = /^(Bearer|Basic|Token)\s+/i.exec(value);
    return [
      ...(scheme ? [{ kind: 'text', text: scheme[0] } as const] : []),
      { kind: 'variable', name: variable, hint: `the value of ${name}` },
    ];
  }
  return withVariables(value, variable);
}

/** `${env:X}` becomes the shell's X and `${input:id}` the input's variable; the rest stays literal. */
function withVariables(value: string, _context: string): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of value.matchAll(/\$\{(env|input):([^}]+)\}/g)) {
    if (match.index > last) pieces.push({ kind: 'text', text: value.slice(last, match.index) });
    pieces.push(
      match[1] === 'env'
        ? { kind: 'variable', name: match[2], hint: `${match[2]} (read from the environment)` }
        : inputVariable(match[2]),
    );
    last = match.index + match[0].length;
  }
  if (last < value.length || pieces.length === 0) pieces.push({ kind: 'text', text: value.slice(last) });
  return pieces;
}

/** A URL whose secret-named query parameters become placeholders (the rest of it is copied as written). */
function urlWord(url: string): Word {
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of url.matchAll(/([?&])([^=&#]+)=([^&#]*)/g)) {
    if (!isSecretKey(decodeSafely(match[2])) || /^\$\{(env|input):/.test(match[3])) continue;
    const valueStart = match.index + match[1].length + match[2].length + 1;
    pieces.push({ kind: 'text', text: url.slice(last, valueStart) });
    pieces.push({
      kind: 'variable',
      name: `MCP_URL_${variableName(decodeSafely(match[2]))}`,
      hint: `the value of the URL parameter ${match[2]}`,
    });
    last = valueStart + match[3].length;
  }
  pieces.push({ kind: 'text', text: url.slice(last) });
  return pieces.flatMap((piece) => (piece.kind === 'text' ? withVariables(piece.text, 'MCP_URL') : [piece]));
}

/** The CLI reads an input from MCP_INPUT_<ID> itself; the placeholder names the same variable. */
function inputVariable(id: string): Piece {
  return { kind: 'variable', name: `MCP_INPUT_${variableName(id)}`, hint: `the value of input ${id}` };
}

function variableName(name: string): string {
  return name.replace(/[^A-Za-z0-9]/g, '_').toUpperCase();
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function text(value: string): Word {
  return [{ kind: 'text', text: value }];
}

/** Words joined by spaces into one word, as the CLI's --stdio takes the command line. */
function joinWords(words: readonly Piece[][]): Word {
  return words.flatMap((word, index) =>
    index === 0 ? quotedForCommandLine(word) : [{ kind: 'text', text: ' ' } as const, ...quotedForCommandLine(word)],
  );
}

/** A word of the --stdio command line, quoted for the CLI's own splitting when it has spaces or quotes. */
function quotedForCommandLine(word: Piece[]): Piece[] {
  const literal = word.every((piece) => piece.kind === 'text')
    ? word.map((piece) => (piece as { text: string }).text).join('')
    : undefined;
  if (literal === undefined) return word;
  return [{ kind: 'text', text: /^[^\s"'\\]+$/.test(literal) ? literal : JSON.stringify(literal) }];
}

function renderWord(word: Word): string {
  // Adjacent literal text is quoted as one: `'Authorization: Bearer '"${…}"` rather than a quote per piece.
  const pieces: Piece[] = [];
  for (const piece of word) {
    const last = pieces[pieces.length - 1];
    if (piece.kind === 'text' && last?.kind === 'text')
      pieces[pieces.length - 1] = { kind: 'text', text: last.text + piece.text };
    else if (piece.kind === 'variable' || piece.text !== '') pieces.push(piece);
  }
  if (pieces.length === 0) return "''";
  return pieces
    .map((piece) =>
      piece.kind === 'text'
        ? shellQuote(piece.text)
        : `"\${${piece.name}:?set ${piece.name} to ${piece.hint.replace(/["$`\\}]/g, '')}}"`,
    )
    .join('');
}

/** Quotes a word for a POSIX shell: plain words stay as they are, anything else goes in single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
