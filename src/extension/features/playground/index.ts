import { defineFeature } from '../../platform/feature';
import type { PlaygroundCommand } from './playgroundCommand';

/**
 * Try with a Model (issue 41): a chat panel where the person's request goes to a model they choose (the models
 * sampling reaches) with the chosen servers' tools, each tool call allowed by the person first. The panel's code, with
 * the shared model-and-tools loop (workbench/evals/toolLoop.ts), is imported when the command first runs.
 */
export const playgroundFeature = defineFeature({
  name: 'playground',
  activate({ platform, extension, services, own }) {
    let command: Promise<PlaygroundCommand> | undefined;
    const playground = () =>
      (command ??= import('./playgroundCommand.js').then(
        ({ PlaygroundCommand }) =>
          new PlaygroundCommand(
            platform,
            extension.extensionUri,
            async () => (await services.get('chatModels')?.providers()) ?? [],
            async () => (await services.get('chatModels')?.keys()) ?? [],
          ),
      ));
    own({ dispose: () => void command?.then((loaded) => loaded.dispose()) });
    return {
      commands: {
        'mcpWorkbench.tryWithModel': async (argument) => (await playground()).run(argument),
      },
      exports: { panels: async () => (command ? [...(await command).panels] : []) },
    };
  },
});
