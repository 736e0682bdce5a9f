import type { ContentBlock, GetPromptResult, ReadResourceResult, ResourceContents } from '../../protocol/types';
import { boundText } from './textBounds';

/**
 * What the person attaches to the playground's next request (issue 41): a resource read from a server, or a prompt
 * got from one. Its text goes into the user message, bounded (a byte cap, the cut said); every other kind of content
 * (images, audio, blobs, links) is described by its type and size and never inlined: a model is not sent binary the
 * person did not see. Host-neutral: the playground reads and gets through the client and hands the results here.
 */

/** The text of one attachment is cut at this many UTF-8 bytes. */
export const MAX_ATTACHMENT_BYTES = 32 * 1024;
/** Attachments on one request. */
export const MAX_ATTACHMENTS = 8;

export interface Attachment {
  kind: 'resource' | 'prompt';
  /** The server it came from. */
  server: string;
  /** The resource's URI or the prompt's name (the server's text: shown escaped). */
  label: string;
  /** What the model reads, already bounded. */
  text: string;
  /** UTF-8 bytes of the text before the cut. */
  bytes: number;
  cut: boolean;
}

/** The decoded size of base64 data, without decoding it. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function described(kind: string, mimeType: string | undefined, bytes: number): string {
  return `[${kind}${mimeType ? ` ${mimeType}` : ''}, ${bytes.toLocaleString('en-US')} bytes: not included]`;
}

function resourceText(contents: ResourceContents): string {
  if ('text' in contents && typeof contents.text === 'string') return contents.text;
  const blob = 'blob' in contents && typeof contents.blob === 'string' ? contents.blob : '';
  return described('binary resource', contents.mimeType, base64Bytes(blob));
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return described(block.type, block.mimeType, base64Bytes(block.data));
    case 'resource_link':
      return `[resource link: ${block.uri}]`;
    case 'resource':
      return `[embedded resource ${block.resource.uri}]\n${resourceText(block.resource)}`;
    default: {
      const exhaustive: never = block;
      return described('content', undefined, JSON.stringify(exhaustive).length);
    }
  }
}

function attachment(kind: Attachment['kind'], server: string, label: string, text: string, maxBytes: number) {
  const bounded = boundText(text, maxBytes);
  return { kind, server, label, text: bounded.text, bytes: bounded.bytes, cut: bounded.cut };
}

export function resourceAttachment(
  server: string,
  uri: string,
  result: ReadResourceResult,
  maxBytes = MAX_ATTACHMENT_BYTES,
): Attachment {
  const parts = (Array.isArray(result.contents) ? result.contents : []).map((contents) =>
    result.contents.length > 1 ? `[${contents.uri}]\n${resourceText(contents)}` : resourceText(contents),
  );
  return attachment('resource', server, uri, parts.join('\n\n'), maxBytes);
}

export function promptAttachment(
  server: string,
  name: string,
  result: GetPromptResult,
  maxBytes = MAX_ATTACHMENT_BYTES,
): Attachment {
  const parts = (Array.isArray(result.messages) ? result.messages : []).map(
    (message) => `${message.role}: ${blockText(message.content)}`,
  );
  return attachment('prompt', server, name, parts.join('\n\n'), maxBytes);
}

/** The user message the model reads: the person's request, then each attachment marked as one. */
export function requestWithAttachments(request: string, attachments: readonly Attachment[]): string {
  if (attachments.length === 0) return request;
  const blocks = attachments.map(
    (item) =>
      `--- Attached ${item.kind} ${item.label} (server ${item.server}) ---\n${item.text}\n--- End of attachment ---`,
  );
  return [request, ...blocks].join('\n\n');
}
