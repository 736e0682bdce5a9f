import type * as vscode from 'vscode';
import { deepEqual, diffServerDefinitions } from '../../../workbench/config/diff';
import type { InputDefinition, ServerDefinition, TextSpot } from '../../../workbench/config/mcpConfig';
import { serverIdentityKey } from '../../../workbench/serverIdentity';

/** Where a server is defined. Only workspace files need workspace trust and a first-start confirmation. */
type ServerScope = 'workspace' | 'user';

/** One server as configured: its definition plus where it came from. */
export interface ServerEntry {
  /** Stable identity across reloads: the config source's URI and the server's name. */
  id: string;
  name: string;
  definition: ServerDefinition;
  /** The `inputs` of the same source, for `${input:...}` variables. */
  inputs: readonly InputDefinition[];
  /** Copilot's `tools` allow-list from the entry's file: only these tools are offered (servers/toolAllowList.ts). */
  allowedTools?: readonly string[];
  origin: {
    /** The mcp.json file, or a stand-in URI for the user settings list (see USER_SETTINGS_SOURCE_URI). */
    configUri: vscode.Uri;
    /**
     * The folder the server runs in (`${workspaceFolder}`, default `cwd`): its own folder for workspace servers,
     * the first workspace folder for user servers (or a stand-in for the home directory when none is open).
     */
    folder: vscode.WorkspaceFolder;
    scope: ServerScope;
    /** Human-readable origin for tooltips, pickers and snapshots, e.g. ".vscode/mcp.json (app)". */
    label: string;
    /** Where the entry is in its file, so the row opens the file at it. */
    at?: TextSpot;
    /** What MCP Workbench reads differently from the file's own client, or cannot honour (dialects/). */
    notes?: readonly string[];
    /** Other files that define the same server (same command line and env, or URL): one row names them all. */
    alsoIn?: readonly { label: string; configUri: vscode.Uri; at?: TextSpot }[];
  };
}

export function serverEntryId(configUri: vscode.Uri, name: string): string {
  return `${configUri.toString()}#${name}`;
}

/**
 * The key consent is stored under (sampling policies, model allow-lists): `user#name` for the user's own servers,
 * `workspace:<mcp.json path>#name` for a workspace's, so a workspace server named like a user server inherits nothing.
 */
export function serverIdentityKeyOf(entry: ServerEntry): string {
  const uri = entry.origin.configUri;
  return entry.origin.scope === 'user'
    ? serverIdentityKey({ scope: 'user', name: entry.name })
    : serverIdentityKey({
        scope: 'workspace',
        configPath: uri.scheme === 'file' ? uri.fsPath : uri.toString(),
        name: entry.name,
      });
}

/** Compares what matters for launching, so a reload restarts only servers whose definition changed. */
export function sameLaunchDefinition(a: ServerEntry, b: ServerEntry): boolean {
  const diff = diffServerDefinitions([a.definition], [b.definition]);
  // A changed allow-list restarts the server like a changed command line: its tools are listed again through it.
  return diff.unchanged.length === 1 && deepEqual(a.inputs, b.inputs) && deepEqual(a.allowedTools, b.allowedTools);
}

/** The command line or URL, for tooltips and logs. */
export function describeTarget(definition: ServerDefinition): string {
  switch (definition.kind) {
    case 'stdio':
      return [definition.command, ...definition.args].map(quoteIfNeeded).join(' ');
    case 'http':
      return definition.url;
    default: {
      const exhaustive: never = definition;
      return String(exhaustive);
    }
  }
}

export function transportLabel(definition: ServerDefinition): string {
  switch (definition.kind) {
    case 'stdio':
      return 'stdio';
    case 'http':
      return definition.transport === 'sse' ? 'sse' : 'http';
    default: {
      const exhaustive: never = definition;
      return String(exhaustive);
    }
  }
}

export function quoteIfNeeded(arg: string): string {
  return /[\s"']/.test(arg) ? JSON.stringify(arg) : arg;
}
