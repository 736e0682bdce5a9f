import * as vscode from 'vscode';
import type { WireEvent } from '../../../workbench/protocolLog/wireEvent';

const COMPARE_SCHEME = 'mcp-workbench-protocol';
/** Compare documents kept for tabs that may still be open; the oldest go first. */
const MAX_DOCUMENTS = 40;

/**
 * Compare in the Protocol view: two rows side by side in VS Code's diff editor, over read-only virtual documents
 * (closing them never asks to save). The text is the log's, which was masked when the message was recorded.
 */
export class CompareDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(COMPARE_SCHEME, this);
  private counter = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? vscode.l10n.t('This row is no longer available.');
  }

  async compare(serverName: string, left: WireEvent, right: WireEvent): Promise<void> {
    const title = vscode.l10n.t('{0}: row {1} ↔ row {2}', serverName, left.seq, right.seq);
    await vscode.commands.executeCommand('vscode.diff', this.document(left), this.document(right), title, {
      preview: false,
    });
  }

  private document(event: WireEvent): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: COMPARE_SCHEME, path: `/${++this.counter}/row-${event.seq}.json` });
    this.contents.set(uri.toString(), prettyText(event));
    for (const key of this.contents.keys()) {
      if (this.contents.size <= MAX_DOCUMENTS) break;
      this.contents.delete(key);
    }
    return uri;
  }

  dispose(): void {
    this.registration.dispose();
    this.contents.clear();
  }
}

/** A row as compared: a message's JSON pretty-printed (as it was cut, when it was), any other row as its record. */
export function prettyText(event: WireEvent): string {
  if (event.kind === 'message' && !event.truncated) {
    try {
      return `${JSON.stringify(JSON.parse(event.text), null, 2)}\n`;
    } catch {
      return `${event.text}\n`;
    }
  }
  if (event.kind === 'message') return `${event.text}\n`;
  const { seq: _seq, time: _time, ...rest } = event;
  void _seq;
  void _time;
  return `${JSON.stringify(rest, null, 2)}\n`;
}
