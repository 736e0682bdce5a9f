import { LocalError } from '../../errors';
import type { ReadResourceResult, ResourceContents } from '../../types';
import { APP_MIME_TYPE } from './toolUi';
import { isObject } from '../../guards';

/** The most bytes of app HTML a host holds (the published example apps are about 230 KB each). */
export const DEFAULT_MAX_APP_HTML_BYTES = 5 * 1024 * 1024;
const MAX_DOMAINS = 32;
const MAX_DOMAIN_LENGTH = 256;

export interface UiCsp {
  readonly connectDomains: readonly string[];
  readonly resourceDomains: readonly string[];
  readonly frameDomains: readonly string[];
  readonly baseUriDomains: readonly string[];
}

export type UiPermission = 'camera' | 'microphone' | 'geolocation' | 'clipboardWrite';
const UI_PERMISSIONS: readonly UiPermission[] = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];

/** `_meta.ui` of the UI resource, as the server declared it (still untrusted: the CSP builder checks each domain). */
export interface UiResourceMeta {
  readonly csp: UiCsp;
  readonly permissions: readonly UiPermission[];
  readonly domain: string | undefined;
  readonly prefersBorder: boolean | undefined;
}

export interface UiResource {
  readonly uri: string;
  readonly mimeType: string;
  readonly html: string;
  /** UTF-8 size of the HTML. */
  readonly bytes: number;
  readonly meta: UiResourceMeta;
}

function strings(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((entry): entry is string => typeof entry === 'string' && entry.length <= MAX_DOMAIN_LENGTH)
    .slice(0, MAX_DOMAINS);
}

/** Reads `_meta.ui` of a content item (or of its resources/list entry); missing or malformed parts read as "none". */
export function uiResourceMeta(meta: unknown): UiResourceMeta {
  const ui = isObject(meta) && isObject(meta.ui) ? meta.ui : {};
  const csp = isObject(ui.csp) ? ui.csp : {};
  const permissions = isObject(ui.permissions) ? ui.permissions : {};
  return {
    csp: {
      connectDomains: strings(csp.connectDomains),
      resourceDomains: strings(csp.resourceDomains),
      frameDomains: strings(csp.frameDomains),
      baseUriDomains: strings(csp.baseUriDomains),
    },
    permissions: UI_PERMISSIONS.filter((name) => isObject(permissions[name])),
    domain: typeof ui.domain === 'string' && ui.domain.length <= MAX_DOMAIN_LENGTH ? ui.domain : undefined,
    prefersBorder: typeof ui.prefersBorder === 'boolean' ? ui.prefersBorder : undefined,
  };
}

/** True for `text/html;profile=mcp-app`, whatever the spacing and case of its parameters. */
function isAppMimeType(mimeType: unknown): boolean {
  if (typeof mimeType !== 'string') return false;
  const [type, ...parameters] = mimeType
    .toLowerCase()
    .split(';')
    .map((part) => part.trim());
  return type === 'text/html' && parameters.some((parameter) => parameter.replace(/\s/g, '') === 'profile=mcp-app');
}

function decodeBlob(blob: string, serverName: string, uri: string): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(blob))
    throw new LocalError('protocol-violation', `${serverName}: the UI resource ${uri} has a blob that is not base64`);
  const binary = atob(blob);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return new TextDecoder().decode(bytes);
}

/**
 * The app document out of a resources/read result: the content item with the requested URI (or the only one),
 * of the app MIME type, as text or base64 blob, at most `maxBytes`. Its `_meta.ui` wins over the list entry's.
 */
export function uiResourceFromRead(
  result: ReadResourceResult,
  uri: string,
  serverName: string,
  maxBytes: number,
  listMeta?: unknown,
): UiResource {
  const contents = Array.isArray(result.contents) ? result.contents : [];
  const item: ResourceContents | undefined =
    contents.find((entry) => isObject(entry) && entry.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!isObject(item))
    throw new LocalError(
      'protocol-violation',
      `${serverName}: resources/read of ${uri} returned no content for that URI`,
    );
  if (!isAppMimeType(item.mimeType)) {
    throw new LocalError(
      'protocol-violation',
      `${serverName}: the UI resource ${uri} has MIME type ${JSON.stringify(item.mimeType ?? null)}, not ${APP_MIME_TYPE}; it is not drawn`,
    );
  }
  const text =
    typeof item.text === 'string'
      ? item.text
      : typeof item.blob === 'string'
        ? item.blob.length > (maxBytes * 4) / 3 + 4
          ? undefined
          : decodeBlob(item.blob, serverName, uri)
        : null;
  if (text === null)
    throw new LocalError('protocol-violation', `${serverName}: the UI resource ${uri} has neither text nor blob`);
  const bytes = text === undefined ? Number.POSITIVE_INFINITY : new TextEncoder().encode(text).length;
  if (bytes > maxBytes)
    throw new LocalError(
      'message-too-large',
      `${serverName}: the UI resource ${uri} exceeds the limit of ${maxBytes} bytes of app HTML (setting mcpWorkbench.apps.maxHtmlBytes); it is not drawn`,
    );
  const ownMeta = isObject(item._meta) && isObject(item._meta.ui) ? item._meta : undefined;
  return {
    uri,
    mimeType: String(item.mimeType),
    html: text as string,
    bytes,
    meta: uiResourceMeta(ownMeta ?? listMeta),
  };
}
