import { defineFeature } from '../../platform/feature';
import { reportConfigProblems } from './configProblems';
import { forgetInputs } from './forgetInputs';
import { ServerImporter } from './importServers';
import { openWorkspaceConfig } from './openConfig';
import { offerFoundSources, openServerSource, vscodeUserFileOf } from './sourceFiles';

/** Add, import and open server configurations; forget stored inputs; report what does not parse. */
export const configFeature = defineFeature({
  name: 'config',
  activate({ platform, own, extension }) {
    const importer = new ServerImporter();
    own(importer, platform.loader.onDidFindProblems(reportConfigProblems));
    platform.loader.useVscodeUserFile(vscodeUserFileOf(extension));
    void platform.loader.firstLoad.then(() => offerFoundSources(platform.loader, extension.globalState));
    return {
      commands: {
        'mcpWorkbench.refresh': () => platform.loader.reload(),
        // Add Server and Copy Server to… load their code when first run, not with the extension.
        'mcpWorkbench.addServer': async (argument) => (await import('./addServer.js')).addServerCommand(argument),
        'mcpWorkbench.importServers': (argument) => importer.run(argument),
        'mcpWorkbench.forgetInputs': () => forgetInputs(platform.inputs),
        'mcpWorkbench.openWorkspaceConfig': () => openWorkspaceConfig(),
        'mcpWorkbench.openServerSource': (argument) => openServerSource(platform.manager, argument),
        'mcpWorkbench.copyServerTo': async (argument) =>
          (await import('./copyServer.js')).copyServerTo(platform.manager, platform.loader, argument),
        'mcpWorkbench.showServerCard': async (argument) =>
          (await import('./serverCard.js')).showServerCard(platform.manager, argument),
      },
      exports: { importer },
    };
  },
});
