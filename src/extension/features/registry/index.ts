import { defineFeature } from '../../platform/feature';

/** The registry's code (its client, mapping, bundles) loads with the feature's first command (esbuild.js). */
const registryCommands = () => import('./registryCommands.js');

/** The MCP Registry: browse and add its servers; import and export `server.json`. */
export const registryFeature = defineFeature({
  name: 'registry',
  activate({ platform }) {
    return {
      commands: {
        'mcpWorkbench.browseRegistry': async () => (await registryCommands()).browseRegistry(),
        'mcpWorkbench.importServerJson': async (argument) => (await registryCommands()).importServerJson(argument),
        'mcpWorkbench.exportServerJson': async (argument) =>
          (await registryCommands()).exportServerJsonCommand(platform.manager, argument),
      },
      exports: undefined,
    };
  },
});
