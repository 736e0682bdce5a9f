/**
 * Every command the extension contributes (package.json `contributes.commands`), in one vscode-free list so a unit
 * test can hold it against the manifest. The command table (commands.ts) is typed against it: a command without a
 * handler, or a handler for a command not listed here, does not compile.
 */
export const COMMAND_IDS = [
  'mcpWorkbench.startServer',
  'mcpWorkbench.stopServer',
  'mcpWorkbench.restartServer',
  'mcpWorkbench.signIn',
  'mcpWorkbench.showLog',
  'mcpWorkbench.setLogLevel',
  'mcpWorkbench.refresh',
  'mcpWorkbench.addServer',
  'mcpWorkbench.importServers',
  'mcpWorkbench.forgetInputs',
  'mcpWorkbench.openWorkspaceConfig',
  'mcpWorkbench.callTool',
  'mcpWorkbench.callToolJson',
  'mcpWorkbench.readResource',
  'mcpWorkbench.readResourceTemplate',
  'mcpWorkbench.subscribeResource',
  'mcpWorkbench.unsubscribeResource',
  'mcpWorkbench.getPrompt',
  'mcpWorkbench.copyName',
  'mcpWorkbench.copyUri',
  'mcpWorkbench.refreshServer',
  'mcpWorkbench.setModelApiKey',
  'mcpWorkbench.setSamplingPolicy',
  'mcpWorkbench.showSamplingHistory',
  'mcpWorkbench.openHistoryEntry',
  'mcpWorkbench.rerunHistoryEntry',
  'mcpWorkbench.copyHistoryCliCommand',
  'mcpWorkbench.exportConversation',
  'mcpWorkbench.clearHistory',
  'mcpWorkbench.showServerInstructions',
  'mcpWorkbench.showMoreTools',
  // MCP Registry (issue 21)
  'mcpWorkbench.browseRegistry',
  'mcpWorkbench.importServerJson',
  'mcpWorkbench.exportServerJson',
  // Every config file people keep servers in (issue 38)
  'mcpWorkbench.openServerSource',
  'mcpWorkbench.copyServerTo',
  // Server Cards (issue 43)
  'mcpWorkbench.showServerCard',
  // Tasks (issue 19)
  'mcpWorkbench.cancelTask',
  'mcpWorkbench.openTaskResult',
  'mcpWorkbench.refreshTasks',
  // Skills (issue 22)
  'mcpWorkbench.openSkill',
  'mcpWorkbench.openSkillFile',
  'mcpWorkbench.installSkill',
  'mcpWorkbench.refreshSkills',
  // Events (issue 43)
  'mcpWorkbench.subscribeEvent',
  'mcpWorkbench.unsubscribeEvent',
  'mcpWorkbench.openEventFeed',
  'mcpWorkbench.refreshEvents',
  // The wire in view and dev mode (issue 20)
  'mcpWorkbench.showProtocol',
  // The wire, hands on: the OAuth debugger (issue 40)
  'mcpWorkbench.showSignInSteps',
  'mcpWorkbench.refreshSignInNow',
  // Recorded sessions as tests (issue 20)
  'mcpWorkbench.saveHistoryAsTest',
  'mcpWorkbench.rerecordTestStep',
  // Lint: will every client accept my tools (issue 40)
  'mcpWorkbench.showLintFindings',
  // Doctor and Load Test… in the editor (issue 40)
  'mcpWorkbench.runDoctor',
  'mcpWorkbench.loadTest',
  // Try with a Model: the playground (issue 41)
  'mcpWorkbench.tryWithModel',
  // The gateway in VS Code (issue 37)
  'mcpWorkbench.connectAnotherClient',
  'mcpWorkbench.chooseChatRoute',
  'mcpWorkbench.disconnectAgent',
  // Per-tool rules for agents (issue 37)
  'mcpWorkbench.disableToolForAgents',
  'mcpWorkbench.enableToolForAgents',
  'mcpWorkbench.agentToolPolicyRun',
  'mcpWorkbench.agentToolPolicyAsk',
  'mcpWorkbench.agentToolPolicyReview',
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];
