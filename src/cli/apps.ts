import type { McpClient } from '../protocol/client';
import { LocalError } from '../protocol/errors';
import { APPS_API, toolUi, type AppsApi } from '../protocol/extensions/apps';
import type { Tool } from '../protocol/types';
import { appCsp, appPermissions, VSCODE_GRANTABLE_PERMISSIONS } from '../workbench/apps/appCsp';
import { UsageError, type ParsedArgs } from './args';

/** The MCP Apps side of the CLI: `app <tool>`, and which tools have an app in `tools` and `info`. */
export const APP_USAGE =
  "  app <tool>                           the UI resource of a tool's MCP App: URI, size, CSP as this client builds it, permissions, domain";

interface Outcome {
  output: unknown;
}
type Runner<O extends Outcome> = (client: McpClient, args: ParsedArgs) => Promise<O>;

function appsApi(client: McpClient): AppsApi {
  const api = client.extension(APPS_API);
  if (!api) throw new LocalError('capability-missing', `${client.serverName}: MCP Apps are off in this client`);
  return api;
}

/** A tool as listed, with `app` (its UI resource and visibility) when it has one. */
function marked(tool: Tool): Tool {
  const ui = toolUi(tool);
  return ui.resourceUri === undefined && ui.visibility.includes('model')
    ? tool
    : { ...tool, app: { resourceUri: ui.resourceUri, visibility: ui.visibility } };
}

async function appSummary(client: McpClient): Promise<{ tools: string[]; appOnly: string[] } | undefined> {
  if (!client.session.capabilities.tools) return undefined;
  const tools = await client.listTools();
  return {
    tools: tools.filter((tool) => toolUi(tool).resourceUri !== undefined).map((tool) => tool.name),
    appOnly: tools.filter((tool) => !toolUi(tool).visibility.includes('model')).map((tool) => tool.name),
  };
}

async function describeApp(client: McpClient, args: ParsedArgs): Promise<Outcome> {
  const [name] = args.positionals;
  if (!name) throw new UsageError('app needs a tool name');
  const tools = client.session.capabilities.tools ? await client.listTools() : [];
  const tool = tools.find((entry) => entry.name === name);
  if (!tool) throw new LocalError('invalid-argument', `${client.serverName} lists no tool named ${name}`);
  const ui = toolUi(tool);
  if (!ui.resourceUri)
    throw new LocalError('invalid-argument', `${client.serverName}: tool ${name} has no app (no _meta.ui.resourceUri)`);
  const resource = await appsApi(client).readUiResource(ui.resourceUri);
  const csp = appCsp(resource.meta.csp);
  const permissions = appPermissions(resource.meta.permissions, VSCODE_GRANTABLE_PERMISSIONS);
  return {
    output: {
      tool: name,
      resourceUri: resource.uri,
      visibility: ui.visibility,
      mimeType: resource.mimeType,
      bytes: resource.bytes,
      csp: { declared: resource.meta.csp, policy: csp.policy, refused: csp.refused },
      permissions: {
        requested: resource.meta.permissions,
        granted: permissions.granted,
        notGrantable: permissions.notGrantable,
      },
      domain: resource.meta.domain ?? null,
      prefersBorder: resource.meta.prefersBorder ?? null,
    },
  };
}

function markingTools<O extends Outcome>(tools: Runner<O>): Runner<O> {
  return async (client, args) => {
    const outcome = await tools(client, args);
    return {
      ...outcome,
      output: Array.isArray(outcome.output) ? (outcome.output as Tool[]).map(marked) : outcome.output,
    };
  };
}

function summarisingApps<O extends Outcome>(info: Runner<O>): Runner<O> {
  return async (client, args) => {
    const outcome = await info(client, args);
    // info stays what it was for a server whose tools cannot be listed: the apps summary is then left out.
    const apps = await appSummary(client).catch(() => undefined);
    return { ...outcome, output: { ...(outcome.output as object), ...(apps && { apps }) } };
  };
}

/** Adds `app`, and marks app tools in `tools` (an `app` field on each) and `info` (`apps`: tools with an app, app-only tools). */
export function withApps<O extends Outcome>(runners: Record<string, Runner<O>>): Readonly<Record<string, Runner<O>>> {
  const { tools, info } = runners;
  return {
    ...runners,
    ...(tools && { tools: markingTools(tools) }),
    ...(info && { info: summarisingApps(info) }),
    app: describeApp as Runner<O>,
  };
}
