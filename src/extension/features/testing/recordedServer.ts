import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpClient } from '../../../protocol/client';
import { MASK } from '../../../workbench/secrets';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import type { LoadedRecording, RecordedServer } from '../../../workbench/recordings/format';
import {
  chooseRecordingBinding,
  recordedServerName,
  replayedCalls,
  type BindingReason,
  type ReplayedCall,
} from '../../../workbench/recordings/binding';
import { serverEntryId, type ServerEntry } from '../../platform/config/serverEntry';
import { asPersonsStart, type LaunchConfirmation } from '../../platform/servers/launchConfirmation';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerManager } from '../../platform/servers/serverManager';
import { ServerState } from '../../platform/servers/serverState';
import { startWithFeedback } from '../../platform/servers/startServer';

/** A connection a test run replays on, and how to let go of it afterwards. */
interface RecordedServerSession {
  client: McpClient;
  secrets: readonly string[];
  dispose(): Promise<void>;
}

/** What the confirmation to replay a workspace recording on a server outside the workspace shows; a test hook sees this. */
export interface BindingConfirmationRequest {
  /** The recording, relative to the workspace. */
  recording: string;
  /** The server's name and where it is defined, hidden characters escaped. */
  serverName: string;
  origin: string;
  /** The requests the replay makes, in order (tool calls with what their annotations say). */
  calls: readonly ReplayedCall[];
  message: string;
  detail: string;
  /** The button that allows the replay (the first, focused button declines). */
  allow: string;
}

export type BindingConfirmer = (request: BindingConfirmationRequest) => Promise<boolean>;

/** Declined or not allowed: the test is reported as not run, with this message. */
export class RecordingNotRunError extends Error {
  override readonly name = 'RecordingNotRunError';
}

export interface RecordedServerContext {
  manager: ServerManager;
  /** The platform's first-start consent: a recording's own command line is asked for as a workspace server's is. */
  confirmation: LaunchConfirmation;
  /** Asks the person to replay on a server outside the workspace (the modal, or a test hook). */
  confirmBinding: BindingConfirmer;
  /** The person's yes to a binding, for this window only: (recording, server, the calls) it was given for. */
  allowedBindings: Set<string>;
  /** A line of the test run's output (which server the recording runs on). */
  say(line: string): void;
}

/**
 * The server a recording names, in VS Code. A configured server is chosen by `chooseRecordingBinding`: one of the
 * workspace without asking, one of the person's user settings only after a confirmation that names it and lists the
 * calls to be replayed (a recording comes with the workspace, and its calls run on the person's own server). A stdio
 * recording with no configured server runs its own command line, in a trusted workspace and after the same
 * fingerprinted first-start consent a workspace server gets (its command is as powerful as any in mcp.json).
 */
export async function openRecordedServer(
  context: RecordedServerContext,
  loaded: LoadedRecording,
  recordingUri: vscode.Uri,
): Promise<RecordedServerSession> {
  const server = loaded.recording.server;
  const recording = vscode.workspace.asRelativePath(recordingUri);
  const folder = path.dirname(recordingUri.fsPath);
  const candidates = context.manager.servers.map((controller) => ({
    controller,
    id: controller.id,
    name: controller.name,
    scope: controller.entry.origin.scope,
    configUri: controller.entry.origin.configUri.toString(),
    folderUri: controller.entry.origin.folder.uri.toString(),
  }));
  const binding = chooseRecordingBinding(
    server,
    {
      recordingUri: recordingUri.toString(),
      ...(server.kind === 'config'
        ? { configUri: vscode.Uri.file(path.resolve(folder, server.config)).toString() }
        : {}),
    },
    candidates,
  );
  switch (binding.kind) {
    case 'configured': {
      const { controller } = binding.server;
      context.say(
        vscode.l10n.t(
          'Replaying {0} on MCP server "{1}" ({2}): {3}',
          recording,
          escapeForDisplay(controller.name),
          escapeForDisplay(controller.entry.origin.label),
          bindingReason(binding.reason),
        ),
      );
      if (binding.ask) await confirmBinding(context, loaded, recordingUri, controller);
      if (!ServerState.isRunning(controller.state) && !(await startWithFeedback(controller)))
        throw new Error(vscode.l10n.t('MCP server "{0}" did not start.', controller.name));
      const client = controller.client;
      if (!client) throw new Error(vscode.l10n.t('MCP server "{0}" did not start.', controller.name));
      return { client, secrets: controller.knownSecrets(), dispose: async () => undefined };
    }
    case 'own-command':
      if (server.kind !== 'stdio') throw new Error(`a ${server.kind} recording has no command of its own`);
      return spawnRecorded(context, server, recordingUri);
    case 'none':
      if (server.kind === 'http')
        throw new Error(
          vscode.l10n.t(
            'The recording names the HTTP server {0}: add it to mcp.json as "{1}" to run the test here.',
            server.url,
            binding.name ?? 'server',
          ),
        );
      throw new Error(
        vscode.l10n.t('No MCP server named "{0}" is configured in this workspace.', recordedServerName(server) ?? ''),
      );
    default: {
      const exhaustive: never = binding;
      return exhaustive;
    }
  }
}

function bindingReason(reason: BindingReason): string {
  switch (reason) {
    case 'named-config':
      return vscode.l10n.t('the server of that name in the mcp.json the recording names');
    case 'same-folder':
      return vscode.l10n.t("the server of that name in the recording's workspace folder");
    case 'workspace':
      return vscode.l10n.t('the server of that name in this workspace');
    case 'outside-workspace':
      return vscode.l10n.t('no server of this workspace has that name; yours is used only if you allow it');
    default: {
      const exhaustive: never = reason;
      return exhaustive;
    }
  }
}

/**
 * The person's yes to replaying a workspace recording on their own server, asked before the server is started (a
 * start is itself something the file would make happen). Remembered for this window by recording, server and the
 * list of calls, so an edited file with other calls asks again.
 */
async function confirmBinding(
  context: RecordedServerContext,
  loaded: LoadedRecording,
  recordingUri: vscode.Uri,
  controller: ServerController,
): Promise<void> {
  const state = controller.state;
  const calls = replayedCalls(loaded.recording.steps, ServerState.isRunning(state) ? state.tools : undefined);
  const key = JSON.stringify([
    recordingUri.toString(),
    controller.id,
    calls.map((call) => [call.method, call.subject]),
  ]);
  if (context.allowedBindings.has(key)) return;
  const recording = vscode.workspace.asRelativePath(recordingUri);
  const serverName = escapeForDisplay(controller.name);
  const origin = escapeForDisplay(controller.entry.origin.label);
  const list = calls.map((call, index) => `${index + 1}. ${describeCall(call)}`).join('\n');
  const request: BindingConfirmationRequest = {
    recording,
    serverName,
    origin,
    calls,
    message: vscode.l10n.t('Replay the recorded test {0} on your MCP server "{1}"?', recording, serverName),
    detail: vscode.l10n.t(
      'The recording comes from this workspace, which defines no server of that name; "{0}" is defined in {1}. Running the test starts it if needed and makes these requests on it:\n\n{2}\n\nAllow it only if these calls are safe to make on your server.',
      serverName,
      origin,
      list,
    ),
    allow: vscode.l10n.t('Replay on "{0}"', serverName),
  };
  if (!(await context.confirmBinding(request)))
    throw new RecordingNotRunError(
      vscode.l10n.t('{0} was not run: replaying it on MCP server "{1}" was not allowed.', recording, serverName),
    );
  context.allowedBindings.add(key);
}

function describeCall(call: ReplayedCall): string {
  const what = escapeForDisplay(call.subject === undefined ? call.method : `${call.method} ${call.subject}`);
  switch (call.effect) {
    case undefined:
      return what;
    case 'destructive':
      return vscode.l10n.t('{0} (destructive)', what);
    case 'not-destructive':
      return vscode.l10n.t('{0} (changes data, not destructive)', what);
    case 'read-only':
      return vscode.l10n.t('{0} (read-only)', what);
    case 'unknown':
      return vscode.l10n.t('{0} (effect unknown: the server is not running)', what);
    default: {
      const exhaustive: never = call.effect;
      return exhaustive;
    }
  }
}

/** The modal: the first button, which a stray Enter presses, declines; the replay needs the second. */
export async function askBindingModal(request: BindingConfirmationRequest): Promise<boolean> {
  const decline = vscode.l10n.t("Don't Replay");
  const choice = await vscode.window.showWarningMessage(
    request.message,
    { modal: true, detail: request.detail },
    decline,
    request.allow,
  );
  return choice === request.allow;
}

async function spawnRecorded(
  context: RecordedServerContext,
  server: Extract<RecordedServer, { kind: 'stdio' }>,
  recordingUri: vscode.Uri,
): Promise<RecordedServerSession> {
  const recording = vscode.workspace.asRelativePath(recordingUri);
  if (!vscode.workspace.isTrusted)
    throw new Error(vscode.l10n.t('The workspace is not trusted: a recording cannot start its server.'));
  if ([server.command, ...server.args].some((word) => word.includes(MASK)))
    throw new Error(vscode.l10n.t('The recorded command line has a masked secret in it.'));
  const env: Record<string, string> = {};
  const secrets: string[] = [];
  for (const [variable, value] of Object.entries(server.env ?? {})) {
    if (value !== MASK) env[variable] = value;
    else if (process.env[variable] !== undefined) secrets.push((env[variable] = process.env[variable] as string));
    else
      throw new Error(
        vscode.l10n.t(
          'The recorded server needs {0} (masked in the file): set it in the environment of VS Code.',
          variable,
        ),
      );
  }
  const name = server.name ?? path.basename(server.command);
  const cwd = path.resolve(path.dirname(recordingUri.fsPath), server.cwd ?? '.');
  context.say(vscode.l10n.t('Replaying {0} on its own command line (server "{1}")', recording, escapeForDisplay(name)));
  // The same consent as a workspace server's first start, remembered by the same fingerprint (the recording is the
  // definition's source): the person sees the program, arguments, folder and environment before anything runs.
  const definition = {
    kind: 'stdio' as const,
    name,
    command: server.command,
    args: server.args,
    env: server.env ?? {},
    cwd,
  };
  const entry: ServerEntry = {
    id: serverEntryId(recordingUri, name),
    name,
    definition,
    inputs: [],
    origin: {
      configUri: recordingUri,
      folder: vscode.workspace.getWorkspaceFolder(recordingUri) ?? {
        uri: vscode.Uri.file(cwd),
        name: path.basename(cwd),
        index: -1,
      },
      scope: 'workspace',
      label: vscode.l10n.t('{0} (a recorded test)', recording),
    },
  };
  const allowed = await asPersonsStart(entry.id, () =>
    context.confirmation.confirm(entry, { resolved: { ...definition, env }, secrets }),
  );
  if (!allowed)
    throw new RecordingNotRunError(
      vscode.l10n.t(
        '{0} was not run: starting its server "{1}" from the recorded command line was not allowed.',
        recording,
        escapeForDisplay(name),
      ),
    );
  // The client and its transport load when a recorded test first runs its own server (esbuild.js).
  const [{ McpClient }, { StdioTransport }] = await Promise.all([
    import('../../../protocol/client.js'),
    import('../../../protocol/node/stdio.js'),
  ]);
  const transport = new StdioTransport({ command: server.command, args: server.args, env, cwd });
  const client = new McpClient({ serverName: name, transport, era: server.era ?? 'auto' });
  try {
    await client.connect();
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return { client, secrets, dispose: () => client.close().catch(() => undefined) };
}
