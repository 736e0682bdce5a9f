import * as vscode from 'vscode';
import type { ServerEntry } from '../../platform/config/serverEntry';
import type { ChatRouteChoice } from '../../platform/gateway/chatRoute';
import { notify } from '../../platform/ui/notifications';
import { builtInMcpFiles, readByBuiltInMcp, type BuiltInMcpWindow } from './builtInMcpFiles';

/** VS Code's own MCP support (1.99+): on, it reads some of the same files (builtInMcpFiles.ts) and may start the same servers. */
const BUILT_IN_MCP_SECTION = 'chat.mcp';
/**
 * The setting that turns it on or off. VS Code 1.99 to 1.10x: `chat.mcp.enabled` (a boolean). Later ones (1.139
 * checked) replaced it by `chat.mcp.access` ('none' | 'registry' | 'all', default 'all') and migrate the old key, which
 * they no longer register: read as before, VS Code's client looked off there, the notice never came, and Turn Off wrote
 * a key those VS Codes do not read.
 */
type BuiltInMcpSwitch = { key: 'access'; off: 'none' } | { key: 'enabled'; off: false };
const SHOWN_KEY = 'mcpWorkbench.builtInMcpNoticeShown';
/** Copilot's agent host, which reads `.github/mcp.json`, comes with this extension. */
const COPILOT_CHAT = 'GitHub.copilot-chat';

export type BuiltInMcpNoticeOutcome =
  | 'not-needed'
  | 'already-shown'
  | 'turned-off'
  | 'kept-both'
  | 'dismissed'
  /** Chat reaches the servers through this extension's gateways (VS Code 1.101+). */
  | 'through-workbench'
  /** Chat keeps running VS Code's own copy (VS Code 1.101+: the choice is stored, and can be changed by a command). */
  | 'vscode-own';

/**
 * Says once per workspace that two MCP clients act on this workspace's servers (VS Code's, for chat, and this
 * extension). Without the notice a person sees a server started twice, or stopped here and still running for chat,
 * and cannot tell which client did what. Where VS Code can take servers from an extension (1.101+), it asks how chat
 * should reach them: through this extension's gateways (one process) or VS Code's own copy, stored for the
 * workspace; on older VS Code it offers to turn VS Code's off for this workspace.
 */
export class BuiltInMcpNotice {
  /**
   * Kept in memory and set before anything is awaited: config reloads come in bursts, and two checks must not
   * both see "not shown yet" while the stored flag is being written.
   */
  private shown: boolean;

  constructor(
    private readonly state: vscode.Memento,
    private readonly chatRoute?: ChatRouteChoice,
    /** The active profile's user mcp.json (the config loader's), which VS Code reads too. */
    private readonly userFile: () => string | undefined = () => undefined,
  ) {
    this.shown = state.get<boolean>(SHOWN_KEY, false);
  }

  async check(entries: readonly ServerEntry[]): Promise<BuiltInMcpNoticeOutcome> {
    const window = this.window();
    const files = builtInMcpFiles(window);
    // Only servers both clients read: one from .cursor/mcp.json or this extension's setting is ours alone.
    const shared = entries.filter((entry) =>
      [entry.origin, ...(entry.origin.alsoIn ?? [])].some(({ configUri }) =>
        readByBuiltInMcp(configUri.scheme === 'file' ? configUri.fsPath : configUri.path, files, window),
      ),
    );
    if (shared.length === 0 || !builtInMcpEnabled()) return 'not-needed';
    if (this.shown) return 'already-shown';
    this.shown = true;
    await this.state.update(SHOWN_KEY, true);
    const named = files.map((file) => file.label).join(', ');
    if (this.chatRoute?.available) return this.askRoute(this.chatRoute, named);
    const turnOff = vscode.l10n.t("Turn Off VS Code's MCP for This Workspace");
    const keep = vscode.l10n.t('Keep Both');
    const choice = await notify(
      'info',
      vscode.l10n.t(
        'VS Code\'s own MCP support is also on and reads the same files ({0}), so chat may start these servers too. Commands under "MCP Workbench:" and the MCP Workbench view act only on this extension\'s servers.',
        named,
      ),
      turnOff,
      keep,
    );
    const builtIn = builtInMcpSwitch();
    if (choice === turnOff && builtIn) {
      await vscode.workspace
        .getConfiguration(BUILT_IN_MCP_SECTION)
        .update(builtIn.key, builtIn.off, vscode.ConfigurationTarget.Workspace);
      return 'turned-off';
    }
    return choice === keep ? 'kept-both' : 'dismissed';
  }

  /** VS Code 1.101+: how chat reaches the servers, decided here for the workspace (a command changes it later). */
  private async askRoute(chatRoute: ChatRouteChoice, named: string): Promise<BuiltInMcpNoticeOutcome> {
    if (chatRoute.decided !== undefined) return 'already-shown';
    const workbench = vscode.l10n.t('Chat Uses MCP Workbench');
    const own = vscode.l10n.t("Chat Runs VS Code's Own Copy");
    const choice = await notify(
      'info',
      vscode.l10n.t(
        "VS Code's own MCP support reads the same files ({0}), so chat would run a second copy of these servers. Chat can reach them through MCP Workbench instead: one process per server, and chat's calls show here. The command \"Choose How Chat Reaches This Workspace's Servers\" changes this later.",
        named,
      ),
      workbench,
      own,
    );
    if (choice === workbench) {
      await chatRoute.choose('workbench');
      return 'through-workbench';
    }
    if (choice === own) {
      await chatRoute.choose('vscode');
      return 'vscode-own';
    }
    return 'dismissed';
  }

  /** What this window's VS Code reads: its version, the open workspace file, the profile's user file, Copilot. */
  private window(): BuiltInMcpWindow {
    const workspaceFile = vscode.workspace.workspaceFile;
    const userFile = this.userFile();
    return {
      version: vscode.version,
      ...(workspaceFile?.scheme === 'file' ? { workspaceFile: workspaceFile.fsPath } : {}),
      ...(userFile ? { userFile } : {}),
      copilotAgentHost: vscode.extensions.getExtension(COPILOT_CHAT) !== undefined,
    };
  }

  /** Test hooks: forget that the notice was shown here and check again, in one step (no reload can slip between). */
  recheck(entries: readonly ServerEntry[]): Promise<BuiltInMcpNoticeOutcome> {
    this.shown = false;
    return this.check(entries);
  }
}

/** Which setting this VS Code registers (it has a default), or undefined when it has no MCP support. */
function builtInMcpSwitch(): BuiltInMcpSwitch | undefined {
  const section = vscode.workspace.getConfiguration(BUILT_IN_MCP_SECTION);
  if (section.inspect<string>('access')?.defaultValue !== undefined) return { key: 'access', off: 'none' };
  if (section.inspect<boolean>('enabled')?.defaultValue !== undefined) return { key: 'enabled', off: false };
  return undefined;
}

/** False when this VS Code has no MCP support (neither setting is registered): nothing to warn about. */
function builtInMcpEnabled(): boolean {
  const builtIn = builtInMcpSwitch();
  const section = vscode.workspace.getConfiguration(BUILT_IN_MCP_SECTION);
  switch (builtIn?.key) {
    case 'access':
      return section.get<string>('access') !== 'none';
    case 'enabled':
      return section.get<boolean>('enabled') === true;
    case undefined:
      return false;
    default: {
      const unknown: never = builtIn;
      throw new Error(`unknown switch ${JSON.stringify(unknown)}`);
    }
  }
}
