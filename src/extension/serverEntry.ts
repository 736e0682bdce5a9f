import type * as vscode from 'vscode';
import type { InputDefinition, ServerDefinition } from '../core/config/mcpConfig';

/** One server as configured: its definition plus where it came from. */
export interface ServerEntry {
  /** Stable identity across reloads: the config file's URI and the server's name. */
  id: string;
  name: string;
  definition: ServerDefinition;
  /** The `inputs` of the same file, for `${input:...}` variables. */
  inputs: readonly InputDefinition[];
  origin: {
    configUri: vscode.Uri;
    folder: vscode.WorkspaceFolder;
    /** Workspace files need workspace trust before they may run anything. */
    scope: 'workspace';
  };
}

export function serverEntryId(configUri: vscode.Uri, name: string): string {
  return `${configUri.toString()}#${name}`;
}

/** Compares what matters for launching, so a reload restarts only servers whose definition changed. */
export function sameLaunchDefinition(a: ServerEntry, b: ServerEntry): boolean {
  return JSON.stringify(a.definition) === JSON.stringify(b.definition) && JSON.stringify(a.inputs) === JSON.stringify(b.inputs);
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

function quoteIfNeeded(arg: string): string {
  return /[\s"']/.test(arg) ? JSON.stringify(arg) : arg;
}
