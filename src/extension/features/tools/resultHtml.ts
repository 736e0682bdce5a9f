import * as vscode from 'vscode';
import { displayWidth, imageSize } from '../../platform/ui/imageInfo';
import type { ContentBlock, ResourceContents } from '../../../protocol/types';
import type { ValidationVerdict } from '../../../protocol/validation/schemaValidation';
import type { ToolCallRecord } from './toolResultMarkdown';
import { base64Bytes } from '../../platform/ui/mimeLanguage';
import { escapeHtml } from '../../platform/webviews/webviewPage';
import type { ResultBodyMessage } from './resultChannel';
import { printJson, SHOW_MORE_CHARS, splitForFirstScreen } from './resultLimits';

/**
 * The body of the result view. Everything in a result comes from the server, so every string is escaped; media
 * is only shown from `data:` URIs of image and audio types (the page's CSP allows nothing else).
 */
/** Where a result area is: its own tab (a page per tool), or under the fields of the tool's form. */
export type ResultPlace = 'tab' | 'form';

/**
 * The result area of a page (drawn and updated by media/results/results.js): the body it starts with, and which body
 * that is, so the page can tell the extension what it shows when it says `ready`.
 */
export function resultArea(place: ResultPlace, initial: ResultBodyMessage | undefined): string {
  const state = JSON.stringify(
    initial ? { key: initial.key, sequence: initial.type === 'show' ? initial.sequence : undefined } : {},
  ).replace(/</g, '\\u003c');
  const label = escapeHtml(vscode.l10n.t('Result'));
  return (
    `<main id="result" data-place="${place}" aria-label="${label}" aria-live="polite"${initial ? '' : ' hidden'}>${initial?.html ?? ''}</main>\n` +
    `<script type="application/json" id="result-state">${state}</script>`
  );
}

/** The status of a call without a result: its arguments being asked, in flight (with its progress line and Cancel), cancelled, or failed. */
export type CallStatus =
  { kind: 'waiting' } | { kind: 'calling' } | { kind: 'cancelled' } | { kind: 'failed'; message: string };

export function statusBody(place: ResultPlace, toolName: string, serverName: string, status: CallStatus): string {
  const heading =
    place === 'tab'
      ? `<h1>${escapeHtml(toolName)} <span class="muted">· ${escapeHtml(serverName)}</span></h1>`
      : `<h2>${escapeHtml(vscode.l10n.t('Result'))}</h2>`;
  switch (status.kind) {
    case 'waiting':
      return `${heading}<p class="muted">${escapeHtml(vscode.l10n.t('Waiting for the arguments of {0}…', toolName))}</p>`;
    case 'calling':
      return (
        `${heading}<p class="calling" role="status"><span class="spinner" aria-hidden="true"></span>${escapeHtml(vscode.l10n.t('Calling {0}…', toolName))}</p>` +
        `<p id="call-progress" class="muted"></p>` +
        `<p><button type="button" class="secondary" data-action="cancelCall">${escapeHtml(vscode.l10n.t('Cancel Call'))}</button></p>`
      );
    case 'cancelled':
      return `${heading}<p class="muted">${escapeHtml(vscode.l10n.t('The call of {0} was cancelled.', toolName))}</p>`;
    case 'failed':
      return `${heading}<div class="error-banner" role="alert">${escapeHtml(vscode.l10n.t('Calling {0} failed: {1}', toolName, status.message))}</div>`;
    default: {
      const exhaustive: never = status;
      return String(exhaustive);
    }
  }
}

export function resultBody(record: ToolCallRecord, place: ResultPlace = 'tab'): string {
  const { result, outputValidation } = record.outcome;
  const parts: string[] = [];
  // In the form the tool and server are named in the form's own heading.
  if (place === 'tab')
    parts.push(`<h1>${escapeHtml(record.toolName)} <span class="muted">· ${escapeHtml(record.serverName)}</span></h1>`);
  else parts.push(`<h2>${escapeHtml(vscode.l10n.t('Result'))}</h2>`);
  parts.push(`<p class="muted">${escapeHtml(vscode.l10n.t('Answered in {0} ms', record.durationMs))}</p>`);
  if (result.isError === true) {
    parts.push(
      `<div class="error-banner" role="alert"><strong>⚠ ${escapeHtml(vscode.l10n.t('Tool reported an error'))}</strong></div>`,
    );
  }
  parts.push(`<h2>${escapeHtml(vscode.l10n.t('Content'))}</h2>`);
  if (result.content.length === 0) parts.push(`<p class="muted">${escapeHtml(vscode.l10n.t('(no content)'))}</p>`);
  parts.push(...result.content.map((block) => `<section class="block">${renderBlock(block)}</section>`));
  if (result.structuredContent !== undefined) {
    parts.push(`<h2>${escapeHtml(vscode.l10n.t('Structured content'))}</h2>`);
    parts.push(jsonHtml(result.structuredContent, 'json'));
    parts.push(verdictHtml(outputValidation));
  }
  const argumentsNote = record.argumentsNote ? `<p class="muted">${escapeHtml(record.argumentsNote)}</p>` : '';
  parts.push(
    `<details><summary>${escapeHtml(vscode.l10n.t('Arguments'))}</summary>${argumentsNote}${jsonHtml(record.args)}</details>`,
  );
  const openTab =
    place === 'form'
      ? `<button type="button" class="secondary" data-action="openTab">${escapeHtml(vscode.l10n.t('Open in Its Own Tab'))}</button> `
      : '';
  parts.push(
    `<p class="result-actions">${openTab}<button type="button" class="secondary" data-action="openMarkdown">${escapeHtml(vscode.l10n.t('Open as Markdown'))}</button></p>`,
  );
  return parts.join('\n');
}

function renderBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return textHtml(String(block.text), 'text');
    case 'image':
      return isMedia(block.mimeType, 'image/') && isBase64(block.data)
        ? imageHtml(block.mimeType, block.data, vscode.l10n.t('Image ({0})', block.mimeType))
        : mediaSummary(
            vscode.l10n.t('Image ({0}, {1} bytes)', String(block.mimeType), base64Bytes(String(block.data))),
          );
    case 'audio':
      return isMedia(block.mimeType, 'audio/') && isBase64(block.data)
        ? `<audio controls src="data:${escapeHtml(block.mimeType)};base64,${block.data}"></audio><p class="muted">${escapeHtml(block.mimeType)}</p>`
        : mediaSummary(
            vscode.l10n.t('Audio ({0}, {1} bytes)', String(block.mimeType), base64Bytes(String(block.data))),
          );
    case 'resource_link':
      return (
        `<p>${escapeHtml(vscode.l10n.t('Resource link'))}: <a href="#" data-action="readResource" data-uri="${escapeHtml(String(block.uri))}">` +
        `${escapeHtml(String(block.name))}</a> <code>${escapeHtml(String(block.uri))}</code>${block.mimeType ? ` <span class="muted">${escapeHtml(block.mimeType)}</span>` : ''}</p>`
      );
    case 'resource':
      return embeddedHtml(block.resource);
    default: {
      // A content type from a newer revision: show it raw rather than drop it.
      const unknownBlock: { type?: unknown } = block;
      return `<p class="muted">${escapeHtml(vscode.l10n.t('Content of type {0}', String(unknownBlock.type)))}</p>${jsonHtml(block)}`;
    }
  }
}

/** The image with what it is under it: type, pixel size, bytes; a tiny icon is scaled up so it can be seen. */
function imageHtml(mimeType: string, base64: string, alt: string): string {
  const size = imageSize(base64);
  const width = displayWidth(size);
  const caption = [
    mimeType,
    size ? vscode.l10n.t('{0}×{1} px', size.width, size.height) : '',
    vscode.l10n.t('{0} bytes', base64Bytes(base64)),
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    `<figure class="image"><img alt="${escapeHtml(alt)}"${width ? ` width="${width}" class="scaled"` : ''} src="data:${escapeHtml(mimeType)};base64,${base64}">` +
    `<figcaption class="muted">${escapeHtml(caption)}</figcaption></figure>`
  );
}

function embeddedHtml(resource: ResourceContents): string {
  const header =
    `<p>${escapeHtml(vscode.l10n.t('Embedded resource'))}: <a href="#" data-action="readResource" data-uri="${escapeHtml(String(resource.uri))}">` +
    `<code>${escapeHtml(String(resource.uri))}</code></a>${resource.mimeType ? ` <span class="muted">${escapeHtml(resource.mimeType)}</span>` : ''}</p>`;
  if ('text' in resource && typeof resource.text === 'string') return `${header}${textHtml(resource.text)}`;
  if ('blob' in resource && typeof resource.blob === 'string') {
    if (isMedia(resource.mimeType, 'image/') && isBase64(resource.blob)) {
      return `${header}${imageHtml(String(resource.mimeType), resource.blob, String(resource.uri))}`;
    }
    return `${header}<p class="muted">${escapeHtml(vscode.l10n.t('{0} bytes of binary data', base64Bytes(resource.blob)))}</p>`;
  }
  return header;
}

function verdictHtml(verdict: ValidationVerdict | undefined): string {
  if (!verdict)
    return `<p class="muted">${escapeHtml(vscode.l10n.t('The tool declares no output schema; structured content was not validated.'))}</p>`;
  switch (verdict.kind) {
    case 'valid':
      return `<p class="ok">✓ ${escapeHtml(vscode.l10n.t('Structured content matches the output schema.'))}</p>`;
    case 'invalid':
      return (
        `<div class="error-banner"><p class="bad">✗ ${escapeHtml(vscode.l10n.t('Structured content does not match the output schema:'))}</p>` +
        `<ul>${verdict.errors.map((error) => `<li>${escapeHtml(error)}</li>`).join('')}</ul></div>`
      );
    case 'unchecked':
      return `<p class="muted">${escapeHtml(vscode.l10n.t('Structured content was not validated: {0}', verdict.reason))}</p>`;
    default: {
      const exhaustive: never = verdict;
      return String(exhaustive);
    }
  }
}

function mediaSummary(text: string): string {
  return `<p class="muted">${escapeHtml(text)}</p>`;
}

/** Only plain media types go into a data: URI, so a crafted type cannot break out of the attribute. */
function isMedia(mimeType: unknown, prefix: string): mimeType is string {
  return typeof mimeType === 'string' && mimeType.startsWith(prefix) && /^[a-z]+\/[a-z0-9.+-]+$/i.test(mimeType);
}

function isBase64(data: unknown): data is string {
  return typeof data === 'string' && /^[A-Za-z0-9+/\s]*={0,2}$/.test(data);
}

/**
 * A long text draws its first screen at once; the rest waits in a <template> (parsed, never laid out) until the
 * person asks for more, a chunk at a time (media/results/results.js moves it into the <pre>).
 */
function textHtml(text: string, className?: string): string {
  const { first, rest } = splitForFirstScreen(text);
  const pre = `<pre${className ? ` class="${className}"` : ''}>${escapeHtml(first)}</pre>`;
  if (rest === '') return pre;
  // The label's numbers are filled in by the page as chunks arrive; {0} and {1} stay for it to replace.
  const label = vscode.l10n.t('Show more ({0} of {1} characters shown)', '{0}', '{1}');
  return (
    `<div class="long-text" data-total="${text.length}" data-shown="${first.length}" data-chunk="${SHOW_MORE_CHARS}" data-label="${escapeHtml(label)}">${pre}` +
    `<template>${escapeHtml(rest)}</template>` +
    `<p><button type="button" class="secondary" data-action="showMore">${escapeHtml(label.replace('{0}', first.length.toLocaleString()).replace('{1}', text.length.toLocaleString()))}</button></p></div>`
  );
}

/** JSON from the server, printed without recursion: depth and length are capped, with a note saying where. */
function jsonHtml(value: unknown, className?: string): string {
  const printed = printJson(value);
  const notes = [
    printed.cutAtDepth !== undefined
      ? vscode.l10n.t(
          'Nested deeper than {0} levels: the deeper values are shown as "…" (Open as Markdown has the same cut).',
          printed.cutAtDepth,
        )
      : undefined,
    printed.cutAtChars !== undefined
      ? vscode.l10n.t('Cut at {0} characters.', printed.cutAtChars.toLocaleString())
      : undefined,
  ].filter((note): note is string => note !== undefined);
  return `<pre${className ? ` class="${className}"` : ''}>${escapeHtml(printed.text)}</pre>${notes.map((note) => `<p class="muted">${escapeHtml(note)}</p>`).join('')}`;
}
