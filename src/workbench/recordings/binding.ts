import type { Tool } from '../../protocol/types';
import type { RecordedServer, RecordedStep } from './format';

/**
 * Which configured server a recording (`*.mcptest.json`) replays on in the editor, decided in one place so the choice
 * is the same every run and can be said in the test's output. A recording is a file of the workspace: it may come
 * with a cloned repository, so it binds without asking only to a server the workspace itself defines (one the
 * workspace's own consent and trust already cover). Binding to a server the person configured outside the workspace
 * (user settings) replays the file's calls on the person's own server, so that needs their yes (`ask`).
 */

/** A configured server as the binding sees it. URIs are `vscode.Uri.toString()` forms, so prefixes compare. */
export interface BindingCandidate {
  /** The controller's id: the last tie-breaker, so the choice never depends on the order servers were loaded. */
  id: string;
  name: string;
  /** Where it is defined: only `workspace` binds without asking. */
  scope: 'workspace' | 'user';
  /** The mcp.json that defines it. */
  configUri: string;
  /** The workspace folder it belongs to. */
  folderUri: string;
}

/** The recording's place: its own URI and, for a `config` server, the URI its `config` path resolves to. */
export interface RecordingPlace {
  recordingUri: string;
  configUri?: string;
}

/** Why a candidate was chosen, for the test output. */
export type BindingReason =
  /** A `config` recording: the server of that name in the very mcp.json it names. */
  | 'named-config'
  /** A workspace server of the workspace folder that holds the recording. */
  | 'same-folder'
  /** A workspace server of another folder of this workspace. */
  | 'workspace'
  /** A server outside the workspace (the person's user settings): asked first. */
  | 'outside-workspace';

export type RecordingBinding<C extends BindingCandidate> =
  | { kind: 'configured'; server: C; reason: BindingReason; ask: boolean }
  /** A stdio recording with no configured server of its name: its own command line runs (after the launch consent). */
  | { kind: 'own-command' }
  /** Nothing to run on: a `config` or `http` recording with no configured server of its name. */
  | { kind: 'none'; name: string | undefined };

/** The name a recording's server goes by in mcp.json: `server` of a `config` recording, else its recorded `name`. */
export function recordedServerName(server: RecordedServer): string | undefined {
  return server.kind === 'config' ? server.server : server.name;
}

export function chooseRecordingBinding<C extends BindingCandidate>(
  server: RecordedServer,
  place: RecordingPlace,
  candidates: readonly C[],
): RecordingBinding<C> {
  const name = recordedServerName(server);
  const named = name === undefined ? [] : candidates.filter((candidate) => candidate.name === name);
  const byId = (a: C, b: C) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const workspace = named.filter((candidate) => candidate.scope === 'workspace').sort(byId);
  const inConfig =
    server.kind === 'config' && place.configUri !== undefined
      ? workspace.find((candidate) => candidate.configUri === place.configUri)
      : undefined;
  if (inConfig) return { kind: 'configured', server: inConfig, reason: 'named-config', ask: false };
  // The innermost folder that holds the recording (folders may nest in a multi-root workspace).
  const holding = workspace
    .filter((candidate) => isInside(place.recordingUri, candidate.folderUri))
    .sort((a, b) => b.folderUri.length - a.folderUri.length || byId(a, b))[0];
  if (holding) return { kind: 'configured', server: holding, reason: 'same-folder', ask: false };
  if (workspace[0]) return { kind: 'configured', server: workspace[0], reason: 'workspace', ask: false };
  const outside = named.filter((candidate) => candidate.scope !== 'workspace').sort(byId)[0];
  if (outside) return { kind: 'configured', server: outside, reason: 'outside-workspace', ask: true };
  return server.kind === 'stdio' ? { kind: 'own-command' } : { kind: 'none', name };
}

function isInside(uri: string, folder: string): boolean {
  return uri.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
}

/** How a replayed call may touch the server, from the tool's annotations (MCP's defaults when a hint is absent). */
export type CallEffect = 'destructive' | 'not-destructive' | 'read-only' | 'unknown';

/** One request the replay will make, in the order of the file, for the confirmation's list. */
export interface ReplayedCall {
  method: string;
  /** The tool, prompt or resource it is about. */
  subject?: string;
  /** For a tool call: what its annotations say; `unknown` when the server's tools are not known or lack this one. */
  effect?: CallEffect;
}

/**
 * The requests a replay makes, with each tool call's effect when the server's tools are known. MCP's defaults apply to
 * a known tool: `destructiveHint` is true unless said otherwise, and means nothing for a `readOnlyHint` tool.
 */
export function replayedCalls(steps: readonly RecordedStep[], tools: readonly Tool[] | undefined): ReplayedCall[] {
  return steps.map(({ request }) => {
    const params = request.params;
    const subject =
      typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
    if (request.method !== 'tools/call')
      return { method: request.method, ...(subject === undefined ? {} : { subject }) };
    const tool = tools?.find((candidate) => candidate.name === subject);
    return { method: request.method, ...(subject === undefined ? {} : { subject }), effect: toolEffect(tool) };
  });
}

function toolEffect(tool: Tool | undefined): CallEffect {
  if (!tool) return 'unknown';
  if (tool.annotations?.readOnlyHint === true) return 'read-only';
  return tool.annotations?.destructiveHint === false ? 'not-destructive' : 'destructive';
}
