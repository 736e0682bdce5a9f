import { defineFeature } from '../../platform/feature';
import { browseRegistry, exportServerJsonCommand, importServerJson } from './registryCommands';

/** The MCP Registry: browse and add its servers; import and export `server.json`. */
export const registryFeature = defineFeature({
  name: 'registry',
  activate({ platform }) {
    return {
      commands: {
        'mcpWorkbench.browseRegistry': () => browseRegistry(),
        'mcpWorkbench.importServerJson': (argument) => importServerJson(argument),
        'mcpWorkbench.exportServerJson': (argument) => exportServerJsonCommand(platform.manager, argument),
      },
      exports: undefined,
    };
  },
});
