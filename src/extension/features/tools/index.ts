import { defineFeature } from '../../platform/feature';
import { callTool, callToolJson, type ToolCallUi } from './callTool';
import { ToolForms } from './toolFormPanel';
import { ToolResultView } from './toolResultView';

/** Call Tool: the form generated from a tool's input schema, the call with progress and cancel, its result tab. */
export const toolsFeature = defineFeature({
  name: 'tools',
  activate({ platform, services, own, extension }) {
    const apps = () => services.get('apps');
    const results = new ToolResultView(
      extension.extensionUri,
      platform.documents,
      async (controller, uri) => {
        await services.get('resources')?.open(controller, uri);
      },
      (line) => platform.ownLog.info(line),
    );
    const forms = new ToolForms(extension.extensionUri, results, platform.historyRecorder, apps);
    own(forms, results);
    services.offer('toolResults', {
      show: (controller, record) => void results.show(controller, record),
      openForm: (controller, tool, values) => void forms.show(controller, tool, values),
    });
    const ui: ToolCallUi = {
      openForm: (controller, tool) => forms.show(controller, tool),
      prepareCall: (controller, toolName) => results.prepareCall(controller, toolName),
      history: platform.historyRecorder,
      apps,
    };
    return {
      commands: {
        'mcpWorkbench.callTool': (argument) => callTool(platform.manager, ui, argument),
        'mcpWorkbench.callToolJson': (argument) => callToolJson(platform.manager, ui, argument),
      },
      exports: { forms, results },
    };
  },
});
