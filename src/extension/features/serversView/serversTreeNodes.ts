import type * as vscode from 'vscode';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../../../protocol/types';
import type { ConfigEntryProblem, ConfigSyntaxError } from '../../platform/config/configLoader';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerSectionNode } from '../../platform/services';
import type { OfferingGroup } from './offeringItems';

// The Servers view's nodes and what the view reads its rows from (serversTreeProvider.ts draws them).

export type ServersTreeNode =
  | { kind: 'server'; controller: ServerController }
  | { kind: 'group'; controller: ServerController; group: OfferingGroup }
  | { kind: 'tool'; controller: ServerController; tool: Tool }
  | { kind: 'resource'; controller: ServerController; resource: Resource }
  | { kind: 'template'; controller: ServerController; template: ResourceTemplate }
  | { kind: 'prompt'; controller: ServerController; prompt: Prompt }
  | { kind: 'message'; controller: ServerController; text: string; icon: vscode.ThemeIcon }
  /** The last row of a long tool list: shows the next page of tools when clicked. */
  | { kind: 'more'; controller: ServerController; shown: number; total: number }
  /** A config file that does not parse: the servers below keep its last good configuration. */
  | { kind: 'configError'; error: ConfigSyntaxError }
  /** A server entry that does not load (a schema error): shown where its server would be, with the problem. */
  | { kind: 'badEntry'; problem: ConfigEntryProblem }
  /** The first-run hint above the servers (how to start one), until one starts (ServersViewHint). */
  | { kind: 'hint'; text: string }
  /** Rows another feature adds under a running server (the Skills section: its skills and their files). */
  | ServerSectionNode;

/**
 * Tool rows shown at first, and added per "Show more": VS Code fetches every row a provider returns, so a server
 * with 50,000 tools would otherwise cost 50,000 items and their transfer before the first row appears.
 */
export const TOOL_PAGE_SIZE = 500;

/** The nodes handed to VS Code for one server in one phase; VS Code finds a node to refresh by its identity. */
export interface ServerNodes {
  epoch: number;
  server: ServersTreeNode & { kind: 'server' };
  groups: Map<OfferingGroup, ServersTreeNode & { kind: 'group' }>;
  /** Child lists, kept while their source list (the tools array, the catalog's arrays) is the same object. */
  children: Map<OfferingGroup, { source: readonly unknown[]; nodes: ServersTreeNode[] }>;
  /** Tool rows: the first `limit` tools (their nodes kept across pages) and the "more" row, if any. */
  tools?: {
    source: readonly Tool[];
    limit: number;
    nodes: ServersTreeNode[];
    more?: ServersTreeNode & { kind: 'more' };
  };
  toolLimit: number;
}

/** Where the view learns whether to show the first-run hint (ServersViewHint). */
export interface StartHintSource {
  readonly text: string | undefined;
  readonly onDidChange: vscode.Event<void>;
}

/** Where the view learns which config files do not parse and which entries do not load (the ConfigLoader). */
export interface ConfigSyntaxErrorSource {
  readonly syntaxErrors: readonly ConfigSyntaxError[];
  readonly onDidChangeSyntaxErrors: vscode.Event<void>;
  readonly entryProblems: readonly ConfigEntryProblem[];
  readonly onDidChangeEntryProblems: vscode.Event<void>;
}
