import type { HistoryRecording } from '../workbench/history/historyLog';
import * as vscode from 'vscode';
import type { CommandId } from './platform/commandIds';
import { signInServer } from './platform/servers/signInServer';
import { addServerCommand } from './features/config/addServer';
import type { ConfigLoader } from './platform/config/configLoader';
import { forgetInputs } from './features/config/forgetInputs';
import { clearHistory, copyHistoryCliCommand, openHistoryEntry, rerunHistoryEntry, type HistoryContext } from './features/history/historyCommands';
import type { ServerImporter } from './features/config/importServers';
import type { InputPrompter } from './platform/config/inputPrompter';
import { openWorkspaceConfig } from './features/config/openConfig';
import { getPrompt } from './features/prompts/promptCommands';
import { readResource, readResourceTemplate, toggleSubscription, type ResourcesContext } from './features/resources/resourceCommands';
import type { SamplingService } from './features/sampling/samplingService';
import type { ServerCatalog } from './platform/servers/serverCatalog';
import type { ServerManager } from './platform/servers/serverManager';
import { restartServer } from './features/servers/restartServer';
import { setLogLevel } from './features/servers/setLogLevel';
import { showLog } from './features/servers/showLog';
import { startServer } from './features/servers/startServerCommand';
import { stopServer } from './features/servers/stopServer';
import { callTool, callToolJson, type ToolCallUi } from './features/tools/callTool';
import type { ToolResultDocuments } from './platform/ui/toolResultDocuments';
import { copyName, copyUri, refreshServer, showServerInstructions } from './features/serversView/itemCommands';
import type { ServersTreeProvider } from './features/serversView/serversTreeProvider';
import { browseRegistry, exportServerJsonCommand, importServerJson } from './features/registry/registryCommands';
import type { TasksTreeProvider } from './features/tasks/tasksView';
import { installSkillCommand, openSkill, openSkillFile, refreshSkills, type SkillsContext } from './features/skills/skillCommands';
import { showProtocol, type ProtocolViews } from './features/protocolView/protocolViews';
import type { RecordingTests } from './features/testing/recordingTests';
import { saveHistoryAsTest } from './features/history/saveAsTest';

/** What the command handlers work with; built once by the composition root. */
export interface CommandServices {
  manager: ServerManager;
  loader: ConfigLoader;
  inputs: InputPrompter;
  importer: ServerImporter;
  catalog: ServerCatalog;
  resources: ResourcesContext;
  /** Markdown documents (`mcp-result:`) for tool results and prompts. */
  documents: ToolResultDocuments;
  tools: ToolCallUi;
  sampling: SamplingService;
  /** The History view's commands: the log and the feature entry points they open. */
  history: HistoryContext;
  historyRecorder: HistoryRecording;
  /** The Servers view's provider (its "Show more" rows). */
  tree: ServersTreeProvider;
  /** The Tasks view's provider (Cancel, Open Result). */
  tasks: TasksTreeProvider;
  /** The Skills sections and their verified documents (issue 22). */
  skills?: SkillsContext;
  /** The Protocol view of each server (issue 20). */
  protocol: ProtocolViews;
  /** `*.mcptest.json` files in Test Explorer (issue 20). */
  recordings: RecordingTests;
}

/** A command's handler: the services, then the arguments VS Code passes (a tree node, or values from a caller). */
type CommandHandler = (services: CommandServices, ...args: unknown[]) => unknown;

/**
 * Every contributed command and what it runs. Typed against COMMAND_IDS, so a missing or an unknown command does
 * not compile; test/unit/commandTable.test.ts holds the list against package.json.
 */
export const COMMANDS: Readonly<Record<CommandId, CommandHandler>> = {
  'mcpWorkbench.startServer': (s, argument) => startServer(s.manager, argument),
  'mcpWorkbench.stopServer': (s, argument) => stopServer(s.manager, argument),
  'mcpWorkbench.restartServer': (s, argument) => restartServer(s.manager, argument),
  'mcpWorkbench.signIn': (s, argument) => signInServer(s.manager, argument).then((controller) => controller !== undefined),
  'mcpWorkbench.showLog': (s, argument) => showLog(s.manager, argument),
  'mcpWorkbench.setLogLevel': (s, argument, level) => setLogLevel(s.manager, argument, level),
  'mcpWorkbench.refresh': (s) => s.loader.reload(),
  'mcpWorkbench.addServer': (_s, argument) => addServerCommand(argument),
  'mcpWorkbench.importServers': (s, argument) => s.importer.run(argument),
  'mcpWorkbench.forgetInputs': (s) => forgetInputs(s.inputs),
  'mcpWorkbench.openWorkspaceConfig': () => openWorkspaceConfig(),
  'mcpWorkbench.callTool': (s, argument) => callTool(s.manager, s.tools, argument),
  'mcpWorkbench.callToolJson': (s, argument) => callToolJson(s.manager, s.tools, argument),
  'mcpWorkbench.readResource': (s, argument) => readResource(s.resources, argument),
  'mcpWorkbench.readResourceTemplate': (s, argument) => readResourceTemplate(s.resources, argument),
  'mcpWorkbench.subscribeResource': (s, argument) => toggleSubscription(s.resources, argument, true),
  'mcpWorkbench.unsubscribeResource': (s, argument) => toggleSubscription(s.resources, argument, false),
  'mcpWorkbench.getPrompt': (s, argument) => getPrompt({ manager: s.manager, catalog: s.catalog, documents: s.documents, history: s.historyRecorder }, argument),
  'mcpWorkbench.copyName': (_s, node) => copyName(node),
  'mcpWorkbench.copyUri': (_s, node) => copyUri(node),
  'mcpWorkbench.refreshServer': (s, node) => refreshServer(s.catalog, node),
  'mcpWorkbench.setModelApiKey': (s) => s.sampling.setApiKeyCommand(),
  'mcpWorkbench.setSamplingPolicy': (s, argument) => s.sampling.setPolicyCommand(argument),
  'mcpWorkbench.showSamplingHistory': (s, argument) => s.sampling.showHistoryCommand(argument, s.documents),
  'mcpWorkbench.openHistoryEntry': (s, node) => openHistoryEntry(s.history, node),
  'mcpWorkbench.rerunHistoryEntry': (s, node) => rerunHistoryEntry(s.history, node),
  'mcpWorkbench.copyHistoryCliCommand': (s, node) => copyHistoryCliCommand(s.history, node),
  'mcpWorkbench.clearHistory': (s, node) => clearHistory(s.history, node),
  'mcpWorkbench.showServerInstructions': (s, argument) => showServerInstructions(s.manager, s.documents, argument),
  'mcpWorkbench.showMoreTools': (s, node) => s.tree.showMore(node),
  // MCP Registry (issue 21)
  'mcpWorkbench.browseRegistry': () => browseRegistry(),
  'mcpWorkbench.importServerJson': (_s, argument) => importServerJson(argument),
  'mcpWorkbench.exportServerJson': (s, argument) => exportServerJsonCommand(s.manager, argument),
  // Tasks (issue 19)
  'mcpWorkbench.cancelTask': (s, node) => s.tasks.cancel(node),
  'mcpWorkbench.openTaskResult': (s, node) => s.tasks.openResult(node),
  'mcpWorkbench.refreshTasks': (s) => s.tasks.refresh(),
  // Skills (issue 22)
  'mcpWorkbench.openSkill': (s, argument) => (s.skills ? openSkill(s.skills, argument) : false),
  'mcpWorkbench.openSkillFile': (s, argument) => (s.skills ? openSkillFile(s.skills, argument) : false),
  'mcpWorkbench.installSkill': (s, argument) => (s.skills ? installSkillCommand(s.skills, argument) : false),
  'mcpWorkbench.refreshSkills': (s, argument) => s.skills && refreshSkills(s.skills, argument),
  // The wire in view and dev mode (issue 20)
  'mcpWorkbench.showProtocol': (s, argument) => showProtocol(s.manager, s.protocol, argument),
  // Recorded sessions as tests (issue 20); the second argument of Save as Test gives entry ids and the file.
  'mcpWorkbench.saveHistoryAsTest': async (s, argument, preset) => {
    const saved = await saveHistoryAsTest(s.history.history, s.manager, argument, preset as { entryIds?: number[]; file?: string } | undefined);
    // Told directly, not through the file watcher: the watcher may report late or never (CI once saw no Testing view
    // for a minute after the write), and the Test Explorer's controller is made with the first recording.
    if (saved) await s.recordings.add(saved);
    return saved;
  },
  'mcpWorkbench.rerecordTestStep': (s, item) => s.recordings.rerecord(item),
};

/**
 * Registers every command of the table; the one place the extension calls registerCommand. A command run while the
 * configuration is still being read for the first time (one that activated the extension) waits for that read, so
 * it sees the configured servers.
 */
export function registerCommands(services: CommandServices): vscode.Disposable {
  return vscode.Disposable.from(
    ...Object.entries(COMMANDS).map(([id, handler]) =>
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        await services.loader.firstLoad;
        return handler(services, ...args);
      }),
    ),
  );
}
