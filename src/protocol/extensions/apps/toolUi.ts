import type { Tool } from '../../types';
import { isObject } from '../../guards';
import type { ExtensionKey } from '../protocolExtension';
import type { AppsApi } from './appsExtension';

/** The MCP Apps extension (SEP-1865, stable spec 2026-01-26). */
export const APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The apps extension's API by its id: `client.extension(APPS_API)` without loading the extension's code. */
export const APPS_API: ExtensionKey<AppsApi> = { id: APPS_EXTENSION_ID };
/** The MIME type of an app's HTML document; hosts render only this profile. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The flat key older servers (and the SDK, for compatibility) put the resource URI under. */
const FLAT_RESOURCE_URI_KEY = 'ui/resourceUri';

const MAX_URI_LENGTH = 2048;

type ToolVisibility = 'model' | 'app';

/** What a tool definition says about its app, read defensively: the definition is the server's. */
interface ToolUi {
  /** The `ui://` resource with the app's HTML, when the tool has an app. */
  readonly resourceUri: string | undefined;
  /** Who may call the tool; the spec's default is both. */
  readonly visibility: readonly ToolVisibility[];
}

const DEFAULT_VISIBILITY: readonly ToolVisibility[] = Object.freeze(['model', 'app']);

/** A `ui://` URI the host will read, or undefined for anything else (other schemes, oversized, control characters). */
function validUiUri(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_URI_LENGTH || !value.startsWith('ui://')) return undefined;
  return /[\u0000-\u001f\u007f\s]/.test(value) ? undefined : value;
}

/**
 * Reads `_meta.ui` (the current key) and `_meta["ui/resourceUri"]` (the older flat key). An unreadable visibility
 * (not an array, unknown words only) falls back to the default rather than hiding a tool the server meant to show.
 */
export function toolUi(tool: Tool | object): ToolUi {
  const declared = (tool as { _meta?: unknown })._meta;
  const meta = isObject(declared) ? declared : {};
  const ui = isObject(meta.ui) ? meta.ui : {};
  const resourceUri = validUiUri(ui.resourceUri) ?? validUiUri(meta[FLAT_RESOURCE_URI_KEY]);
  let visibility = DEFAULT_VISIBILITY;
  if (Array.isArray(ui.visibility)) {
    const known = ui.visibility.filter((entry): entry is ToolVisibility => entry === 'model' || entry === 'app');
    if (known.length > 0) visibility = [...new Set(known)];
  }
  return { resourceUri, visibility };
}

/** A tool with an app drawn beside its result. */
export function hasApp(tool: Tool | object): boolean {
  return toolUi(tool).resourceUri !== undefined;
}

/** Offered to the person and the model (the tree, the Call Tool picker): false only for `["app"]`-only tools. */
export function isVisibleToModel(tool: Tool | object): boolean {
  return toolUi(tool).visibility.includes('model');
}

/** May an app of the same server call this tool? */
export function isCallableByApp(tool: Tool | object): boolean {
  return toolUi(tool).visibility.includes('app');
}
