import type * as vscode from 'vscode';
import type { FeatureContext } from '../../platform/feature';
import { callTool, callToolJson, type ToolCallUi } from './callTool';
import { ToolForms } from './toolFormPanel';
import { ToolResultView } from './toolResultView';

/** The Call form, the result tabs and the call commands: imported (index.ts) when one of them is first used. */
export class ToolUi implements vscode.Disposable {
  readonly results: ToolResultView;
  readonly forms: ToolForms;
  private readonly ui: ToolCallUi;

  constructor(private readonly context: FeatureContext) {
    const { platform, services, extension } = context;
    const apps = () => services.get('apps');
    this.results = new ToolResultView(
      extension.extensionUri,
      platform.documents,
      async (controller, uri) => {
        await services.get('resources')?.open(controller, uri);
      },
      (line) => platform.ownLog.info(line),
    );
    this.forms = new ToolForms(extension.extensionUri, this.results, platform.historyRecorder, apps);
    this.ui = {
      openForm: (controller, tool) => this.forms.show(controller, tool),
      prepareCall: (controller, toolName) => this.results.prepareCall(controller, toolName),
      history: platform.historyRecorder,
      apps,
    };
  }

  callTool(argument: unknown): Promise<void> {
    return callTool(this.context.platform.manager, this.ui, argument);
  }

  callToolJson(argument: unknown): Promise<void> {
    return callToolJson(this.context.platform.manager, this.ui, argument);
  }

  dispose(): void {
    this.forms.dispose();
    this.results.dispose();
  }
}
