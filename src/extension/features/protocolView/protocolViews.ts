import * as vscode from 'vscode';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerManager } from '../../platform/servers/serverManager';
import { resolveServer } from '../../platform/servers/serverPicker';
import type { CompareDocuments } from './compareDocuments';
import type { ProtocolPanel } from './protocolPanel';
import { WireTaps } from './wireTaps';
import { webviewMedia } from '../../platform/webviews/webviewMedia';

/**
 * The Protocol view of every server: the taps attached to their connections (ServerManagerServices.wire) and at most
 * one panel per server. A tap keeps its log only while a panel (or dev mode) holds it.
 */
export class ProtocolViews implements vscode.Disposable {
  readonly taps = new WireTaps();
  private readonly panels = new Map<string, ProtocolPanel>();
  /** Made with the first panel: registering its scheme at activation would cost every window. */
  private compareDocuments: CompareDocuments | undefined;

  constructor(private readonly extensionUri: vscode.Uri) {}

  /** For LaunchServices.wire. */
  readonly wire = (serverId: string, knownSecrets: () => readonly string[]) => this.taps.tapFor(serverId, knownSecrets);

  /** Opens (or reveals) the panel of a server. */
  async show(controller: ServerController): Promise<ProtocolPanel> {
    // The panel's code is imported when a panel first opens, not with the extension (the taps are what runs before).
    const [{ CompareDocuments }, { ProtocolPanel }] = await Promise.all([
      import('./compareDocuments.js'),
      import('./protocolPanel.js'),
    ]);
    const existing = this.panels.get(controller.id);
    if (existing) {
      existing.reveal();
      return existing;
    }
    const tap = this.taps.tapFor(controller.id, () => controller.knownSecrets());
    const hold = tap.hold();
    const panel = vscode.window.createWebviewPanel(
      'mcpWorkbench.protocol',
      vscode.l10n.t('Protocol: {0}', controller.name),
      vscode.ViewColumn.Active,
      {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [webviewMedia(this.extensionUri, 'protocol')],
      },
    );
    this.compareDocuments ??= new CompareDocuments();
    const view = new ProtocolPanel(panel, hold.log, hold, controller, this.compareDocuments, this.extensionUri);
    this.panels.set(controller.id, view);
    view.onDidDispose(() => this.panels.delete(controller.id));
    return view;
  }

  panelOf(serverId: string): ProtocolPanel | undefined {
    return this.panels.get(serverId);
  }

  dispose(): void {
    for (const panel of [...this.panels.values()]) panel.dispose();
    this.compareDocuments?.dispose();
  }
}

/** MCP Workbench: Show Protocol — the live timeline of a server's wire. */
export async function showProtocol(manager: ServerManager, views: ProtocolViews, argument: unknown): Promise<boolean> {
  const controller = await resolveServer(manager, argument, {
    placeHolder: vscode.l10n.t('Select the MCP server whose protocol to show'),
  });
  if (!controller) return false;
  await views.show(controller);
  return true;
}
