import * as os from 'node:os';
import * as vscode from 'vscode';
import { McpClient } from '../../../protocol/client';
import { PersonWaits } from '../../../protocol/jsonrpc/personWaits';
import { eraPreferenceOf } from '../../../workbench/config/mcpConfig';
import type { VariableContext } from '../../../workbench/config/variables';
import {
  createTransport,
  previewServerDefinition,
  resolveServerWithSecrets,
  type ResolvedServer,
  type ResolvedWithSecrets,
} from '../../../workbench/node/launch';
import type { StdioLaunch } from '../../../workbench/node/commandResolution';
import type { ServerEntry } from '../../platform/config/serverEntry';
import { configuredInputLimits, extensionHttpFetch } from '../../platform/config/hostLimits';
import type { Platform } from '../../platform/platform';
import { asPersonsStart } from '../../platform/servers/launchConfirmation';
import type { ServerController } from '../../platform/servers/serverController';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import { showError } from '../../platform/ui/coreErrors';

/**
 * Doctor and the load test run their own copy of a server (a process or a connection of their own, never the row's
 * client): doctor must see every step from the start, and a load run must be stopped and cleaned up on its own without
 * touching what the person uses. That copy runs only as the row's own start would: a workspace server waits for trust
 * and gets the same fingerprinted first-start consent (a "yes" given to the row counts here, and the other way round),
 * asked as the person's own start since the person ran the command.
 */
export async function mayRunOwnCopy(platform: Platform, controller: ServerController): Promise<boolean> {
  const entry = controller.entry;
  if (entry.origin.scope === 'workspace' && !platform.isWorkspaceTrusted()) {
    void controller.notify(
      'warning',
      vscode.l10n.t(
        'MCP server "{0}" was not run: this workspace is not trusted, and its servers run only after you trust it.',
        escapeForDisplay(entry.name),
      ),
    );
    return false;
  }
  let allowed: boolean;
  try {
    const preview = await previewServerDefinition(entry.definition, variableContext(platform, entry));
    allowed = await asPersonsStart(controller.id, () =>
      platform.confirmation.confirm(entry, { ...preview, resolved: withDefaultCwd(preview.resolved) }),
    );
  } catch (error) {
    void showError(error, { server: controller });
    return false;
  }
  if (!allowed)
    void controller.notify(
      'info',
      vscode.l10n.t('MCP server "{0}" was not run: its command line was not allowed.', escapeForDisplay(entry.name)),
    );
  return allowed;
}

/** The entry with its variables resolved (inputs asked as for the row's start), and the values to mask. */
export async function resolveEntry(platform: Platform, entry: ServerEntry): Promise<ResolvedWithSecrets> {
  const { resolved, secrets } = await resolveServerWithSecrets(entry.definition, variableContext(platform, entry));
  return { resolved: withDefaultCwd(resolved), secrets };
}

/**
 * A client of our own for the resolved server, not connected: no sampling, elicitation or roots are offered (a load
 * run or a check must not raise the review panel), and an HTTP server's saved sign-in is used without opening a
 * browser (a sign-in it needs is reported, as a silent start reports it).
 */
export async function ownClient(
  platform: Platform,
  entry: ServerEntry,
  resolved: ResolvedServer,
  launch: StdioLaunch | undefined,
  signal: AbortSignal,
): Promise<McpClient> {
  const personWaits = new PersonWaits();
  const limits = configuredInputLimits();
  const httpFetch = resolved.kind === 'http' ? extensionHttpFetch().fetch : undefined;
  const authorizer =
    resolved.kind === 'http'
      ? await platform.auth.authorizerFor({
          serverName: entry.name,
          serverUrl: resolved.url,
          oauth: resolved.oauth,
          mode: { kind: 'silent', onRequired: () => undefined },
          log: () => undefined,
          personWaits,
          signal,
          fetch: httpFetch,
          maxDocumentBytes: limits.maxDocumentBytes,
        })
      : undefined;
  const transport = createTransport(resolved, { launch, authorizer, limits, fetch: httpFetch });
  return new McpClient({
    serverName: entry.name,
    transport,
    era: eraPreferenceOf(entry.definition),
    personWaits,
  });
}

/** As the row's start resolves it (serverLauncher.ts): a user server in an untrusted workspace gets no folder. */
function variableContext(platform: Platform, entry: ServerEntry): VariableContext {
  const folder = entry.origin.folder.uri;
  const untrustedFolder = entry.origin.scope === 'user' && !platform.isWorkspaceTrusted();
  return {
    workspaceFolder: folder.scheme === 'file' && !untrustedFolder ? folder.fsPath : undefined,
    userHome: os.homedir(),
    env: process.env,
    input: (id) => platform.inputs.valueFor(entry, id),
  };
}

/** A stdio server with no folder to run in runs in the home directory, as the row's start does. */
function withDefaultCwd<T extends ResolvedServer>(resolved: T): T {
  return resolved.kind === 'stdio' && resolved.cwd === undefined ? { ...resolved, cwd: os.homedir() } : resolved;
}
