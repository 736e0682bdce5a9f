import type { ContentBlock } from '../../protocol/types';
import type { AppDisplayMode } from './hostContext';
import { isObject } from '../../protocol/guards';
import { checkExternalUrl, hasUnsafeCharacter } from '../urlPolicy';

/**
 * The params of the app→host requests and notifications, read defensively (the app is untrusted): each reader
 * returns the checked value or a reason the message is refused.
 */
type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

const MAX_URI = 2048;
const MAX_BLOCKS = 32;
const MAX_LOG_CHARS = 4000;

export function toolCallParams(
  params: Record<string, unknown>,
): Checked<{ name: string; args: Record<string, unknown> }> {
  if (typeof params.name !== 'string' || params.name.length === 0 || params.name.length > 256)
    return { ok: false, reason: 'tools/call needs a tool name' };
  if (params.arguments !== undefined && !isObject(params.arguments))
    return { ok: false, reason: 'tools/call arguments must be an object' };
  return {
    ok: true,
    value: { name: params.name, args: (params.arguments as Record<string, unknown> | undefined) ?? {} },
  };
}

export function resourceReadParams(params: Record<string, unknown>): Checked<string> {
  if (typeof params.uri !== 'string' || params.uri.length === 0 || params.uri.length > MAX_URI)
    return { ok: false, reason: 'resources/read needs a uri' };
  return { ok: true, value: params.uri };
}

/** Links an app may ask to open: http(s) and mailto, as an absolute URL, normalised (the URL shown is the URL opened). */
/**
 * The link an app asks to open, as the person will see it and the browser will get it: http(s) through the one URL
 * check every server-supplied URL passes (refused, never "fixed": a space, a backslash or userinfo could show one
 * host and reach another), or a `mailto:` address without unsafe characters.
 */
export function openLinkParams(params: Record<string, unknown>): Checked<string> {
  if (typeof params.url !== 'string' || params.url.length > MAX_URI)
    return { ok: false, reason: 'ui/open-link needs a url' };
  const raw = params.url;
  if (/^mailto:/i.test(raw)) {
    if (hasUnsafeCharacter(raw) || raw.includes('\\'))
      return { ok: false, reason: 'ui/open-link refuses this mailto: URL' };
    return { ok: true, value: raw };
  }
  const verdict = checkExternalUrl(raw);
  if (verdict.kind === 'refused') return { ok: false, reason: `ui/open-link refuses the URL: ${verdict.detail}` };
  return { ok: true, value: verdict.url };
}

function contentBlocks(value: unknown, what: string): Checked<ContentBlock[]> {
  if (!Array.isArray(value) || value.length > MAX_BLOCKS)
    return { ok: false, reason: `${what} needs a content array of at most ${MAX_BLOCKS} blocks` };
  for (const block of value)
    if (!isObject(block) || typeof block.type !== 'string')
      return { ok: false, reason: `${what} has a content block without a type` };
  return { ok: true, value: value as ContentBlock[] };
}

export function messageParams(params: Record<string, unknown>): Checked<ContentBlock[]> {
  if (params.role !== 'user') return { ok: false, reason: 'ui/message role must be "user"' };
  return contentBlocks(params.content, 'ui/message');
}

export interface ModelContext {
  readonly content: ContentBlock[];
  readonly structuredContent?: Record<string, unknown>;
}

export function modelContextParams(params: Record<string, unknown>): Checked<ModelContext> {
  const content: Checked<ContentBlock[]> =
    params.content === undefined ? { ok: true, value: [] } : contentBlocks(params.content, 'ui/update-model-context');
  if (!content.ok) return content;
  if (params.structuredContent !== undefined && !isObject(params.structuredContent))
    return { ok: false, reason: 'ui/update-model-context structuredContent must be an object' };
  return {
    ok: true,
    value: {
      content: content.value,
      ...(isObject(params.structuredContent) ? { structuredContent: params.structuredContent } : {}),
    },
  };
}

export function displayModeParams(params: Record<string, unknown>): Checked<AppDisplayMode> {
  const mode = params.mode;
  return mode === 'inline' || mode === 'fullscreen' || mode === 'pip'
    ? { ok: true, value: mode }
    : { ok: false, reason: 'ui/request-display-mode needs inline, fullscreen or pip' };
}

/** One file an app offers: embedded (text or base64 blob) or a link the host reads from the same server. */
export type DownloadItem =
  | { kind: 'embedded'; uri: string; mimeType?: string; text?: string; blob?: string }
  | { kind: 'link'; uri: string; name: string; mimeType?: string };

export function downloadParams(params: Record<string, unknown>): Checked<DownloadItem[]> {
  if (!Array.isArray(params.contents) || params.contents.length === 0 || params.contents.length > 8)
    return { ok: false, reason: 'ui/download-file needs 1 to 8 contents' };
  const items: DownloadItem[] = [];
  for (const entry of params.contents) {
    if (!isObject(entry)) return { ok: false, reason: 'ui/download-file has a content that is not an object' };
    const mimeType = typeof entry.mimeType === 'string' ? entry.mimeType.slice(0, 200) : undefined;
    if (entry.type === 'resource' && isObject(entry.resource) && typeof entry.resource.uri === 'string') {
      const { uri, text, blob } = entry.resource;
      if (typeof text !== 'string' && typeof blob !== 'string')
        return { ok: false, reason: 'ui/download-file embedded resource has neither text nor blob' };
      items.push({
        kind: 'embedded',
        uri: uri.slice(0, MAX_URI),
        mimeType: typeof entry.resource.mimeType === 'string' ? entry.resource.mimeType : mimeType,
        ...(typeof text === 'string' ? { text } : { blob: blob as string }),
      });
    } else if (entry.type === 'resource_link' && typeof entry.uri === 'string' && entry.uri.length <= MAX_URI) {
      items.push({
        kind: 'link',
        uri: entry.uri,
        name: typeof entry.name === 'string' ? entry.name.slice(0, 200) : entry.uri,
        mimeType,
      });
    } else {
      return { ok: false, reason: 'ui/download-file contents must be resource or resource_link blocks' };
    }
  }
  return { ok: true, value: items };
}

export function sizeParams(params: Record<string, unknown>): { width?: number; height?: number } {
  const clamp = (value: unknown): number | undefined =>
    typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.min(10_000, Math.round(value))) : undefined;
  const width = clamp(params.width);
  const height = clamp(params.height);
  return { ...(width === undefined ? {} : { width }), ...(height === undefined ? {} : { height }) };
}

export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
const LEVELS: readonly LogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export function logParams(params: Record<string, unknown>): { level: LogLevel; text: string } {
  const level = LEVELS.includes(params.level as LogLevel) ? (params.level as LogLevel) : 'info';
  let text: string;
  try {
    text = typeof params.data === 'string' ? params.data : (JSON.stringify(params.data) ?? '');
  } catch {
    text = String(params.data);
  }
  const logger = typeof params.logger === 'string' ? `${params.logger.slice(0, 64)}: ` : '';
  return { level, text: `${logger}${text}`.slice(0, MAX_LOG_CHARS) };
}
