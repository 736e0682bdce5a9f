import type * as vscode from 'vscode';
import type { CallToolOutcome } from '../../protocol/client';
import type { CallToolResult, JsonObject, Tool } from '../../protocol/types';
import type { LintFinding } from '../../workbench/lint/findings';
import type { ChatModelProvider } from '../../workbench/sampling/chatModel';
import type { ServerController } from './servers/serverController';

/**
 * What features offer each other. A feature never imports another: it offers a service here when it activates
 * (`context.services.offer`) and asks for one when it needs it (`context.services.get`), at use time, so the order the
 * features activate in does not matter. The shapes live here, in the platform, so both sides see only them.
 */
interface FeatureServices {
  /** MCP Apps (features/apps): the app of a called tool, drawn beside its result. */
  apps: AppsService;
  /** Tool results and the Call form (features/tools). */
  toolResults: ToolResultsService;
  /** Reading a resource into an editor (features/resources). */
  resources: ResourcesService;
  /** The Skills rows under a server in the Servers view (features/skills). */
  skillsSection: ServerSection;
  /** The Events rows under a server in the Servers view: event types and subscriptions (features/events). */
  eventsSection: ServerSection;
  /** The agents connected through a server's gateway, under the server in the Servers view (features/gateway). */
  agentsSection: ServerSection;
  /** The Protocol view's wire taps (features/protocolView). */
  wireTaps: WireTapsService;
  /** `*.mcptest.json` recordings in Test Explorer (features/testing). */
  recordings: RecordingsService;
  /** The lint findings of each tool, for the badge on its row in the Servers view (features/lint). */
  toolLint: ToolLintService;
  /** The models sampling sends to (features/sampling): evals in the Test Explorer use the same providers. */
  chatModels: ChatModelsService;
}

/** The person's models, as sampling's settings configure them. */
export interface ChatModelsService {
  /** The OpenAI-compatible endpoints of the settings (keys in SecretStorage), then VS Code's language models. */
  providers(): Promise<readonly ChatModelProvider[]>;
  /** Every stored endpoint key, so a report can mask them (a model may echo what it was sent). */
  keys(): Promise<string[]>;
}

/** What the lint found on one tool of a running server. */
export interface ToolLintSummary {
  readonly findings: readonly LintFinding[];
  /** Estimated tokens of the tool (characters / 4 of its JSON), when it could be measured. */
  readonly tokens: number | undefined;
}

export interface ToolLintService {
  /** The findings of a tool as last linted; undefined while the server's lists were not linted yet. */
  forTool(controller: ServerController, toolName: string): ToolLintSummary | undefined;
  /** A server's findings changed (its tools were linted again). */
  readonly onDidChange: vscode.Event<ServerController>;
}

/** One tool call as a result view shows it. */
export interface ToolCallRecord {
  serverName: string;
  toolName: string;
  args: JsonObject;
  /** Said under the arguments when they are not the call's whole arguments (a task's result whose book kept none). */
  argumentsNote?: string;
  outcome: CallToolOutcome;
  durationMs: number;
}

interface ToolResultsService {
  /** Shows a tool call's result in the tool's result tab. */
  show(controller: ServerController, record: ToolCallRecord): void;
  /** Opens the tool's Call form, prefilled with `values` when given. */
  openForm(controller: ServerController, tool: Tool, values?: JsonObject): void;
}

/** The app side of one tool call: told of its answer, or that it ended without one. */
export interface AppCall {
  answered(result: CallToolResult): void;
  cancelled(reason: string): void;
}

export interface AppsService {
  /** Starts the app of a call that is starting (nothing when the tool has no app or apps are off). */
  begin(controller: ServerController, tool: Tool, args: Record<string, unknown>): AppCall;
  /** History's Open Result: a kept result of a tool with an app is shown with its app again (when the server runs). */
  reopen(controller: ServerController, toolName: string, args: unknown, outcome: unknown): void;
}

interface ResourcesService {
  /** Reads a resource of a server into an editor, with the usual progress and errors. */
  open(controller: ServerController, uri: string): Promise<void>;
}

/** A row a feature adds under a running server; `section` names the feature, which tells its rows apart as it likes. */
export interface ServerSectionNode {
  readonly kind: 'section';
  readonly section: string;
  readonly controller: ServerController;
}

/** Rows a feature adds under a running server in the Servers view. */
export interface ServerSection<Node extends ServerSectionNode = ServerSectionNode> {
  /** The section's row under a server, or nothing (a server without the feature). */
  groupNode(controller: ServerController): Node | undefined;
  children(node: Node): Node[];
  item(node: Node): vscode.TreeItem;
  /** A row changed (undefined: the whole view). */
  readonly onDidChange: vscode.Event<Node | undefined>;
}

interface WireTapsService {
  /** Keeps a server's protocol log while the returned disposable lives (dev mode keeps it while it is on). */
  hold(controller: ServerController): vscode.Disposable;
}

interface RecordingsService {
  /** A recording was written: show it in Test Explorer now (the file watcher may report late or never). */
  add(uri: vscode.Uri): Promise<void>;
}

/** The services offered so far; each key is offered once. */
export class OfferedServices {
  private readonly offered = new Map<keyof FeatureServices, unknown>();

  offer<Key extends keyof FeatureServices>(key: Key, service: FeatureServices[Key]): void {
    if (this.offered.has(key)) throw new Error(`The service "${key}" is offered twice`);
    this.offered.set(key, service);
  }

  /** The service, or undefined when no feature offers it (a feature left out of a host). */
  get<Key extends keyof FeatureServices>(key: Key): FeatureServices[Key] | undefined {
    return this.offered.get(key) as FeatureServices[Key] | undefined;
  }
}
