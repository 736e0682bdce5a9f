import * as vscode from 'vscode';
import type { ServerEntry } from './serverEntry';

/**
 * Asks for `${input:id}` values declared in mcp.json's `inputs`. Answers are remembered for the session per
 * config file, so restarting a server does not ask again.
 */
export class InputPrompter {
  private readonly answers = new Map<string, string>();

  async valueFor(entry: ServerEntry, id: string): Promise<string | undefined> {
    const key = `${entry.origin.configUri.toString()}#${id}`;
    const known = this.answers.get(key);
    if (known !== undefined) return known;
    const input = entry.inputs.find((candidate) => candidate.id === id);
    let value: string | undefined;
    if (input?.type === 'pickString') {
      value = await vscode.window.showQuickPick(input.options ?? [], {
        title: vscode.l10n.t('MCP server {0}', entry.name),
        placeHolder: input.description ?? id,
        ignoreFocusOut: true,
      });
    } else {
      value = await vscode.window.showInputBox({
        title: vscode.l10n.t('MCP server {0}', entry.name),
        prompt: input?.description ?? vscode.l10n.t('Value for input "{0}"', id),
        value: input?.default,
        password: input?.password ?? false,
        ignoreFocusOut: true,
      });
    }
    if (value !== undefined) this.answers.set(key, value);
    return value;
  }

  /** Forget answers of a file whose inputs changed. */
  forget(configUri: vscode.Uri): void {
    const prefix = `${configUri.toString()}#`;
    for (const key of [...this.answers.keys()]) if (key.startsWith(prefix)) this.answers.delete(key);
  }
}
