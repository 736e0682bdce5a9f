import * as vscode from 'vscode';
import type { ChatModelProvider, ModelInfo } from '../../../workbench/sampling/chatModel';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import type { Platform } from '../../platform/platform';
import type { ServerController } from '../../platform/servers/serverController';
import { isServerNode } from '../../platform/servers/serverPicker';
import { showError } from '../../platform/ui/coreErrors';
import { PlaygroundPanel } from './playgroundPanel';

type ServerItem = vscode.QuickPickItem & { controller: ServerController };
type ModelItem = vscode.QuickPickItem & { provider: ChatModelProvider; info: ModelInfo };

/**
 * Try with a Model: the servers (the row's, or picked, running ones first), then the model, chosen by the person from
 * the models sampling reaches: nothing is sent to a model the person did not pick here. The picked servers are started
 * when they are not running (the usual trust and first-start checks apply in their start).
 */
export class PlaygroundCommand implements vscode.Disposable {
  readonly panels = new Set<PlaygroundPanel>();

  constructor(
    private readonly platform: Platform,
    private readonly extensionUri: vscode.Uri,
    private readonly providers: () => Promise<readonly ChatModelProvider[]>,
    /** The stored model keys, masked in History and exports (a model may echo what it was sent). */
    private readonly modelKeys: () => Promise<string[]>,
  ) {}

  async run(argument: unknown): Promise<PlaygroundPanel | undefined> {
    const controllers = isServerNode(argument) ? [argument.controller] : await this.pickServers();
    if (!controllers || controllers.length === 0) return undefined;
    const model = await this.pickModel();
    if (!model) return undefined;
    try {
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Starting the servers for the playground…'),
        },
        () => Promise.all(controllers.map((controller) => controller.start())),
      );
    } catch (error) {
      void showError(error, { words: (reason) => vscode.l10n.t('The playground could not start: {0}', reason) });
      return undefined;
    }
    const panel = PlaygroundPanel.open(this.extensionUri, this.platform, controllers, model, this.modelKeys);
    this.panels.add(panel);
    panel.onDidDispose(() => this.panels.delete(panel));
    return panel;
  }

  private async pickServers(): Promise<ServerController[] | undefined> {
    const servers = [...this.platform.manager.servers].sort((a, b) => a.name.localeCompare(b.name));
    if (servers.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'No MCP servers are configured. Run "MCP Workbench: Add Server…" or add them to .vscode/mcp.json.',
        ),
      );
      return undefined;
    }
    const items: ServerItem[] = servers.map((controller) => ({
      label: escapeForDisplay(controller.name),
      description: controller.client ? vscode.l10n.t('running') : vscode.l10n.t('starts when chosen'),
      picked: servers.length === 1 || controller.client !== undefined,
      controller,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      ignoreFocusOut: true,
      placeHolder: vscode.l10n.t("Try which servers' tools with a model?"),
    });
    return picked?.map((item) => item.controller);
  }

  private async pickModel(): Promise<ModelItem | undefined> {
    const items: ModelItem[] = [];
    for (const provider of await this.providers()) {
      let models: ModelInfo[];
      try {
        models = await provider.listModels();
      } catch {
        continue; // one provider that cannot list its models hides only its own
      }
      for (const info of models)
        items.push({
          label: escapeForDisplay(info.name),
          description: escapeForDisplay(info.providerLabel),
          provider,
          info,
        });
    }
    if (items.length === 0) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'No language model is available. Add an OpenAI-compatible endpoint to the setting mcpWorkbench.sampling.endpoints (then set its API key with "MCP Workbench: Set Model API Key…").',
        ),
      );
      return undefined;
    }
    return vscode.window.showQuickPick(items, {
      placeHolder: vscode.l10n.t('Send the requests to which model?'),
      ignoreFocusOut: true,
    });
  }

  dispose(): void {
    for (const panel of [...this.panels]) panel.dispose();
  }
}
