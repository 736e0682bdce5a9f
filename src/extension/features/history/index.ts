import * as vscode from 'vscode';
import type { CallToolOutcome } from '../../../protocol/client';
import { defineFeature } from '../../platform/feature';
import type { HistoryContext } from './historyCommands';
import { HISTORY_VIEW_ID, HistoryTreeProvider, type HistoryNode } from './historyTreeProvider';
import { ServerStarts } from './serverStarts';

/** The History view: every exchange of the session, opened again, re-run, copied as a CLI command, saved as a test. */
export const historyFeature = defineFeature({
  name: 'history',
  activate({ platform, services, own, extension }) {
    const { history, manager } = platform;
    const historyTree = new HistoryTreeProvider(history);
    const historyView = vscode.window.createTreeView<HistoryNode>(HISTORY_VIEW_ID, {
      treeDataProvider: historyTree,
      showCollapseAll: true,
    });
    // Watched from activation, so Save as Test knows which answers came before a server's latest start.
    const starts = new ServerStarts(manager);
    own(historyTree, historyView, starts);
    const context: Omit<HistoryContext, 'cliProgram'> = {
      history,
      manager,
      showToolResult: (controller, entry, outcome) =>
        services.get('toolResults')?.show(controller, {
          serverName: entry.server.name,
          toolName: entry.operation.toolName,
          args: entry.operation.arguments as Record<string, never>,
          outcome: outcome as CallToolOutcome,
          durationMs: entry.durationMs ?? 0,
        }),
      openToolForm: (controller, tool, values) => services.get('toolResults')?.openForm(controller, tool, values),
      documents: platform.documents,
      reopenApp: (controller, toolName, args, outcome) =>
        services.get('apps')?.reopen(controller, toolName, args, outcome),
    };
    // The entries' commands load their code when one first runs, not with the extension.
    let loading: Promise<[typeof import('./historyCommands'), HistoryContext]> | undefined;
    const commands = () =>
      (loading ??= import('./historyCommands.js').then((module) => [
        module,
        { ...context, cliProgram: module.cliProgram(extension.extensionUri) },
      ]));
    return {
      commands: {
        'mcpWorkbench.openHistoryEntry': async (node) => {
          const [module, full] = await commands();
          return module.openHistoryEntry(full, node);
        },
        'mcpWorkbench.rerunHistoryEntry': async (node) => {
          const [module, full] = await commands();
          return module.rerunHistoryEntry(full, node);
        },
        'mcpWorkbench.copyHistoryCliCommand': async (node) => {
          const [module, full] = await commands();
          return module.copyHistoryCliCommand(full, node);
        },
        'mcpWorkbench.clearHistory': async (node) => {
          const [module, full] = await commands();
          return module.clearHistory(full, node);
        },
        // The second argument gives the file (a script, a test) instead of asking.
        'mcpWorkbench.exportConversation': async (argument, preset) => {
          const { exportConversation } = await import('./exportConversation.js');
          return exportConversation(
            history,
            manager,
            async () => (await services.get('chatModels')?.keys()) ?? [],
            argument,
            preset as { file?: string } | undefined,
          );
        },
        // The second argument gives entry ids and the file (a script, a test) instead of asking.
        'mcpWorkbench.saveHistoryAsTest': async (argument, preset) => {
          // Its code (with the recordings' writer) loads when first run, not with the extension.
          const { saveHistoryAsTest } = await import('./saveAsTest.js');
          const saved = await saveHistoryAsTest(
            history,
            manager,
            starts,
            argument,
            preset as { entryIds?: number[]; file?: string } | undefined,
          );
          // Told directly, not through the file watcher: the watcher may report late or never (CI once saw no Testing
          // view for a minute after the write), and the Test Explorer's controller is made with the first recording.
          if (saved) await services.get('recordings')?.add(saved);
          return saved;
        },
      },
      exports: { historyTree },
    };
  },
});
