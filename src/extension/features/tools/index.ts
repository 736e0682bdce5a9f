import { defineFeature } from '../../platform/feature';
import type { ToolUi } from './toolUi';

/**
 * Call Tool: the form generated from a tool's input schema, the call with progress and cancel, its result tab. Their
 * code is imported when a form, a result or a call is first asked for, not with the extension (esbuild.js).
 */
export const toolsFeature = defineFeature({
  name: 'tools',
  activate(context) {
    const { services, own } = context;
    let loading: Promise<ToolUi> | undefined;
    const ui = (): Promise<ToolUi> =>
      (loading ??= import('./toolUi.js').then(({ ToolUi }) => {
        const made = new ToolUi(context);
        own(made);
        return made;
      }));
    services.offer('toolResults', {
      show: (controller, record) => void ui().then(({ results }) => results.show(controller, record)),
      openForm: (controller, tool, values) => void ui().then(({ forms }) => forms.show(controller, tool, values)),
    });
    return {
      commands: {
        'mcpWorkbench.callTool': async (argument) => (await ui()).callTool(argument),
        'mcpWorkbench.callToolJson': async (argument) => (await ui()).callToolJson(argument),
      },
      // The test build's hooks load it at once (testHooks.ts).
      exports: { ui },
    };
  },
});
