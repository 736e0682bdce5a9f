import { defineFeature } from '../../platform/feature';
import { addServerCommand } from './addServer';
import { reportConfigProblems } from './configProblems';
import { forgetInputs } from './forgetInputs';
import { ServerImporter } from './importServers';
import { openWorkspaceConfig } from './openConfig';

/** Add, import and open server configurations; forget stored inputs; report what does not parse. */
export const configFeature = defineFeature({
  name: 'config',
  activate({ platform, own }) {
    const importer = new ServerImporter();
    own(importer, platform.loader.onDidFindProblems(reportConfigProblems));
    return {
      commands: {
        'mcpWorkbench.refresh': () => platform.loader.reload(),
        'mcpWorkbench.addServer': (argument) => addServerCommand(argument),
        'mcpWorkbench.importServers': (argument) => importer.run(argument),
        'mcpWorkbench.forgetInputs': () => forgetInputs(platform.inputs),
        'mcpWorkbench.openWorkspaceConfig': () => openWorkspaceConfig(),
      },
      exports: { importer },
    };
  },
});
