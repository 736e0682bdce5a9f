import { defineFeature } from '../../platform/feature';
import { reportConfigProblems } from './configProblems';
import { forgetInputs } from './forgetInputs';
import { ServerImporter } from './importServers';
import { openWorkspaceConfig } from './openConfig';
import { cardWaitsFor } from './pendingCard';
import { offerFoundSources, openServerSource, vscodeUserFileOf } from './sourceFiles';

/** Add, import and open server configurations; forget stored inputs; report what does not parse. */
export const configFeature = defineFeature({
  name: 'config',
  activate({ platform, own, extension }) {
    const importer = new ServerImporter();
    own(importer, platform.loader.onDidFindProblems(reportConfigProblems));
    platform.loader.useVscodeUserFile(vscodeUserFileOf(extension));
    // Another client's file found is offered after the first read and after each reload (a file that appears later).
    const offerSources = () => void offerFoundSources(platform.loader, extension.globalState);
    void platform.loader.firstLoad.then(offerSources);
    own(platform.loader.onDidChange(offerSources));
    // A server added from its Server Card: at its first connection the card is compared (serverCard.ts), its code
    // loaded only then. `comparing`: the running state fires again (a new tool list) before the card is forgotten.
    const comparing = new Set<string>();
    own(
      platform.manager.onDidChangeServerState((controller) => {
        const identity = controller.identityKey;
        if (controller.state.kind !== 'running' || comparing.has(identity)) return;
        if (!cardWaitsFor(extension.workspaceState, identity)) return;
        comparing.add(identity);
        void import('./serverCard.js')
          .then((cards) => cards.compareAfterAdd(extension.workspaceState, controller))
          .catch((error: unknown) => controller.log.warn(`Comparing the Server Card failed: ${String(error)}`))
          .finally(() => comparing.delete(identity));
      }),
    );
    return {
      commands: {
        'mcpWorkbench.refresh': () => platform.loader.reload(),
        // Add Server and Copy Server to… load their code when first run, not with the extension.
        'mcpWorkbench.addServer': async (argument) =>
          (await import('./addServer.js')).addServerCommand(argument, extension.workspaceState),
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
