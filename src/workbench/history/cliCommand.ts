import type { HistoryOperation } from './historyLog';

/** How the CLI reaches the server: through the same mcp.json, or by its command line or URL. */
export type CliTarget =
  | { kind: 'config'; configPath: string; serverName: string }
  | { kind: 'stdio'; commandLine: string; cwd?: string }
  | { kind: 'url'; url: string };

/**
 * The CLI command that repeats an operation (src/cli/args.ts), or undefined for what the CLI cannot repeat
 * (sampling and elicitation are the server asking us). Words are quoted for a POSIX shell. The arguments are the
 * history's, which are masked: a masked value stays masked in the command rather than putting a secret on the
 * clipboard.
 */
export function cliCommand(operation: HistoryOperation, target: CliTarget, program = 'node dist/cli.js'): string | undefined {
  const words = operationWords(operation);
  if (!words) return undefined;
  return [program, ...words.map(shellQuote), ...targetWords(target).map(shellQuote)].join(' ');
}

function operationWords(operation: HistoryOperation): string[] | undefined {
  switch (operation.kind) {
    case 'tool':
      return ['call', operation.toolName, JSON.stringify(operation.arguments)];
    case 'resource':
      return ['read', operation.uri];
    case 'prompt':
      return ['prompt', operation.promptName, JSON.stringify(operation.arguments)];
    case 'sampling':
    case 'elicitation':
      return undefined;
    default: {
      const exhaustive: never = operation;
      return exhaustive;
    }
  }
}

function targetWords(target: CliTarget): string[] {
  switch (target.kind) {
    case 'config':
      return ['--config', target.configPath, '--server', target.serverName];
    case 'stdio':
      return ['--stdio', target.commandLine, ...(target.cwd ? ['--cwd', target.cwd] : [])];
    case 'url':
      return ['--url', target.url];
    default: {
      const exhaustive: never = target;
      return exhaustive;
    }
  }
}

/** Quotes a word for a POSIX shell: plain words stay as they are, anything else goes in single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
