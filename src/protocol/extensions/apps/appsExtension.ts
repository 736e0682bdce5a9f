import { LocalError } from '../../errors';
import type { CallToolResult, ReadResourceResult, Tool } from '../../types';
import type { ExtensionCallOptions, ExtensionContext, ExtensionDefinition } from '../protocolExtension';
import { APP_MIME_TYPE, APPS_EXTENSION_ID, isCallableByApp } from './toolUi';
import { DEFAULT_MAX_APP_HTML_BYTES, uiResourceFromRead, type UiResource } from './uiResource';

export interface AppsServices {
  /** The most bytes of app HTML read (default 5 MiB). */
  readonly maxHtmlBytes?: number;
}

/** What a host reaches through `client.extension(mcpApps)`: everything an app may ask of its own server. */
export interface AppsApi {
  /** Reads the app document (`resources/read` of the `ui://` URI), checked for MIME type and size. */
  readUiResource(uri: string, options?: ExtensionCallOptions): Promise<UiResource>;
  /** The server's tools an app may call (visibility includes "app"). */
  appTools(options?: ExtensionCallOptions): Promise<Tool[]>;
  /** Calls a tool for an app: refused unless this server lists it with visibility "app". */
  callToolForApp(name: string, args: Record<string, unknown>, options?: ExtensionCallOptions): Promise<CallToolResult>;
  /** Reads a resource for an app. */
  readResourceForApp(uri: string, options?: ExtensionCallOptions): Promise<ReadResourceResult>;
}

const MAX_LIST_PAGES = 100;
/** How long a tools/list answer decides what an app may call before it is asked again. */
const TOOLS_FRESH_MS = 5000;

function activate(context: ExtensionContext, services: AppsServices): AppsApi {
  const maxHtmlBytes = services.maxHtmlBytes ?? DEFAULT_MAX_APP_HTML_BYTES;
  let tools: { list: Tool[]; at: number } | undefined;

  async function listTools(options?: ExtensionCallOptions): Promise<Tool[]> {
    const list: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await context.request('tools/list', cursor === undefined ? undefined : { cursor }, options);
      if (Array.isArray(result.tools)) list.push(...result.tools.filter((tool) => typeof tool?.name === 'string'));
      cursor = typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
      if (cursor === undefined) break;
    }
    tools = { list, at: Date.now() };
    return list;
  }

  async function findTool(name: string, options?: ExtensionCallOptions): Promise<Tool | undefined> {
    const fresh = tools && Date.now() - tools.at < TOOLS_FRESH_MS ? tools.list : undefined;
    // A tool missing from a fresh list may have just been added: ask again once.
    return fresh?.find((tool) => tool.name === name) ?? (await listTools(options)).find((tool) => tool.name === name);
  }

  async function listEntryMeta(uri: string, options?: ExtensionCallOptions): Promise<unknown> {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await context.request('resources/list', cursor === undefined ? undefined : { cursor }, options);
      const entry = Array.isArray(result.resources)
        ? result.resources.find((resource) => resource?.uri === uri)
        : undefined;
      if (entry) return entry._meta;
      cursor = typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
      if (cursor === undefined) return undefined;
    }
    return undefined;
  }

  return {
    async readUiResource(uri, options) {
      const result = await context.request('resources/read', { uri }, options);
      const resource = uiResourceFromRead(result, uri, context.serverName, maxHtmlBytes);
      const declaredAnything =
        Object.values(resource.meta.csp).some((domains) => domains.length > 0) || resource.meta.permissions.length > 0;
      if (declaredAnything) return resource;
      // The spec's fallback: the resources/list entry's _meta.ui, when the content item carries none.
      const listMeta = await listEntryMeta(uri, options).catch(() => undefined);
      return listMeta === undefined
        ? resource
        : uiResourceFromRead(result, uri, context.serverName, maxHtmlBytes, listMeta);
    },
    async appTools(options) {
      return (await listTools(options)).filter(isCallableByApp);
    },
    async callToolForApp(name, args, options) {
      const tool = await findTool(name, options);
      if (!tool)
        throw new LocalError(
          'invalid-argument',
          `${context.serverName}: the app asked for tool "${name}", which this server does not list`,
        );
      if (!isCallableByApp(tool))
        throw new LocalError(
          'invalid-argument',
          `${context.serverName}: the app may not call tool "${name}": its visibility does not include "app"`,
        );
      const result = await context.request('tools/call', { name, arguments: args }, options);
      if (!Array.isArray(result.content))
        throw new LocalError(
          'protocol-violation',
          `${context.serverName}: tools/call result for ${name} has no content array`,
        );
      return result;
    },
    async readResourceForApp(uri, options) {
      const result = await context.request('resources/read', { uri }, options);
      if (!Array.isArray(result.contents))
        throw new LocalError(
          'protocol-violation',
          `${context.serverName}: resources/read result has no contents array`,
        );
      return result;
    },
  };
}

/** io.modelcontextprotocol/ui: declared (with the one MIME type this host draws) only while apps are on. */
export const mcpApps: ExtensionDefinition<AppsServices, AppsApi> = {
  id: APPS_EXTENSION_ID,
  settings: () => ({ mimeTypes: [APP_MIME_TYPE] }),
  activate,
};
