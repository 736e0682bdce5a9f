import * as vscode from 'vscode';
import { errorMessage } from '../../../protocol/errors';
import type { ReadResourceResult, ResourceContents } from '../../../protocol/types';
import type { HistoryOutcome, HistoryRecording } from '../../../workbench/history/historyLog';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerManager } from '../../platform/servers/serverManager';
import { hexSummary, languageForResource } from '../../platform/ui/mimeLanguage';
import type { ServerCatalog } from '../../platform/servers/serverCatalog';
import { resourceTabName } from './resourceTabName';

// Not 'mcp-resource': VS Code 1.139's own MCP client registers a file system for that scheme, and a file system wins
// over a content provider, so VS Code opened our resource documents through its own (which knows none of our servers)
// and failed with "Unable to resolve nonexistent file".
const RESOURCE_SCHEME = 'mcp-workbench-resource';

/**
 * `mcp-workbench-resource:/<server>/<tab name>?server=<id>&uri=<resource URI>`: the path only names the tab (see
 * resourceTabName.ts: a template read of `…/blob/1` is "blob-1.bin", not a bare "1").
 */
function resourceDocumentUri(controller: ServerController, resourceUri: string, mimeType?: string): vscode.Uri {
  const name = safeSegment(resourceTabName(resourceUri, mimeType));
  const query = new URLSearchParams({ server: controller.id, uri: resourceUri }).toString();
  return vscode.Uri.from({ scheme: RESOURCE_SCHEME, path: `/${safeSegment(controller.name)}/${name}`, query });
}

function parseResourceDocumentUri(uri: vscode.Uri): { serverId: string; resourceUri: string } | undefined {
  const params = new URLSearchParams(uri.query);
  const serverId = params.get('server');
  const resourceUri = params.get('uri');
  return serverId && resourceUri ? { serverId, resourceUri } : undefined;
}

/**
 * Read-only documents for resources. The content is read through the server each time VS Code asks for it, so
 * a `notifications/resources/updated` for an open resource simply fires onDidChange and the editor re-reads.
 */
export class ResourceDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly prefetched = new Map<string, ReadResourceResult>();
  private readonly subscriptions: vscode.Disposable[];

  readonly onDidChange = this.changeEmitter.event;
  /** The status-bar note of the last update, replaced by the next one. */
  private updateNote: vscode.Disposable | undefined;
  /** The text of the last update note (for tests). */
  lastUpdateNote: string | undefined;

  constructor(
    private readonly manager: ServerManager,
    catalog: ServerCatalog,
    private readonly history: HistoryRecording,
  ) {
    this.subscriptions = [
      vscode.workspace.registerTextDocumentContentProvider(RESOURCE_SCHEME, this),
      catalog.onDidUpdateResource(({ controller, uri }) => {
        for (const document of vscode.workspace.textDocuments) {
          const parsed = document.uri.scheme === RESOURCE_SCHEME ? parseResourceDocumentUri(document.uri) : undefined;
          if (parsed?.serverId === controller.id && parsed.resourceUri === uri) {
            controller.log.info(`Resource updated: ${uri}`);
            this.changeEmitter.fire(document.uri);
            this.noteUpdate(controller.name, uri);
          }
        }
      }),
    ];
  }

  /**
   * Says in the status bar that an open resource document was re-read because its server reported an update
   * (first-hour report 2.14: the document changed with no sign of why). A status-bar message takes no focus and
   * goes away by itself.
   */
  private noteUpdate(serverName: string, resourceUri: string): void {
    this.updateNote?.dispose();
    // The URI and name come from the server's list: cut short, and no `$(icon)` syntax of theirs is rendered.
    const plain = (text: string) => (text.length > 80 ? `${text.slice(0, 79)}…` : text).replace(/\$\(/g, '$\u200B(');
    this.lastUpdateNote = vscode.l10n.t(
      '$(sync) {0} updated by MCP server "{1}" at {2}',
      plain(resourceUri),
      plain(serverName),
      new Date().toLocaleTimeString(),
    );
    this.updateNote = vscode.window.setStatusBarMessage(this.lastUpdateNote, 10_000);
  }

  /** Reads the resource and opens it in an editor; returns the read result (an image also gets a preview). */
  async open(
    controller: ServerController,
    resourceUri: string,
  ): Promise<{ editor: vscode.TextEditor; result: ReadResourceResult }> {
    const startedAt = Date.now();
    const record = (outcome: HistoryOutcome, result?: ReadResourceResult): void => {
      this.history.record({
        server: { id: controller.id, name: controller.name },
        startedAt,
        durationMs: Date.now() - startedAt,
        operation: { kind: 'resource', uri: resourceUri },
        outcome,
        result,
      });
    };
    let result: ReadResourceResult;
    try {
      result = await this.read(controller, resourceUri);
    } catch (error) {
      record({ kind: 'failed', message: errorMessage(error) });
      throw error;
    }
    record({ kind: 'succeeded' }, result);
    const uri = resourceDocumentUri(controller, resourceUri, result.contents[0]?.mimeType);
    this.prefetched.set(uri.toString(), result);
    let document = await vscode.workspace.openTextDocument(uri);
    const first = result.contents[0];
    const language = first && 'text' in first ? languageForResource(first.mimeType, resourceUri) : 'plaintext';
    if (document.languageId !== language) document = await vscode.languages.setTextDocumentLanguage(document, language);
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    return { editor, result };
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const parsed = parseResourceDocumentUri(uri);
    if (!parsed) return vscode.l10n.t('This is not a valid MCP resource address.');
    const prefetched = this.prefetched.get(uri.toString());
    this.prefetched.delete(uri.toString());
    if (prefetched) return formatContents(prefetched);
    const controller = this.manager.get(parsed.serverId);
    if (!controller) return vscode.l10n.t('The MCP server of this resource is no longer configured.');
    try {
      return formatContents(await this.read(controller, parsed.resourceUri));
    } catch (error) {
      return vscode.l10n.t('Could not read {0}: {1}', parsed.resourceUri, errorMessage(error));
    }
  }

  private async read(controller: ServerController, resourceUri: string): Promise<ReadResourceResult> {
    const client = controller.client;
    if (!client) throw new Error(vscode.l10n.t('MCP server "{0}" is not running', controller.name));
    const result = await client.readResource(resourceUri);
    controller.log.info(
      `Read ${resourceUri} (${result.contents.length} part${result.contents.length === 1 ? '' : 's'})`,
    );
    return result;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.updateNote?.dispose();
    this.changeEmitter.dispose();
    this.prefetched.clear();
  }
}

/** Text parts as they are; binary parts as a header and a hex dump. Several parts are separated by headers. */
function formatContents(result: ReadResourceResult): string {
  if (result.contents.length === 0) return vscode.l10n.t('(the server returned no content)');
  if (result.contents.length === 1 && isText(result.contents[0])) return result.contents[0].text;
  return result.contents
    .map((part) => {
      const header = `--- ${part.uri}${part.mimeType ? ` (${part.mimeType})` : ''} ---`;
      return `${header}\n${isText(part) ? part.text : binarySummary(part.blob, part.mimeType)}`;
    })
    .join('\n\n');
}

function binarySummary(blob: string, mimeType: string | undefined): string {
  const bytes = Buffer.from(blob, 'base64');
  return [
    vscode.l10n.t('Binary content: {0} bytes{1}', bytes.length, mimeType ? `, ${mimeType}` : ''),
    bytes.length > 256 ? vscode.l10n.t('First 256 bytes:') : '',
    hexSummary(bytes),
  ]
    .filter(Boolean)
    .join('\n');
}

function isText(part: ResourceContents): part is ResourceContents & { text: string } {
  return 'text' in part && typeof part.text === 'string';
}

function safeSegment(text: string): string {
  return text.replace(/[\\/:*?"<>|#]+/g, '-').slice(0, 80) || 'resource';
}
