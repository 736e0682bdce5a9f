import { defineFeature } from '../../platform/feature';
import { getPrompt } from './promptCommands';

/** Get Prompt: arguments with completion, the messages as a document. */
export const promptsFeature = defineFeature({
  name: 'prompts',
  activate({ platform }) {
    const context = {
      manager: platform.manager,
      catalog: platform.catalog,
      documents: platform.documents,
      history: platform.historyRecorder,
    };
    return {
      commands: { 'mcpWorkbench.getPrompt': (argument) => getPrompt(context, argument) },
      exports: undefined,
    };
  },
});
