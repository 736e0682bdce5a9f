import * as vscode from 'vscode';
import type { ContentBlock, ResourceContents } from '../../../protocol/types';
import type { ValidationVerdict } from '../../../protocol/validation/schemaValidation';
import { printJson } from './resultLimits';
import type { ToolCallRecord } from '../../platform/services';

export type { ToolCallRecord };

/** Renders a tool result for reading: text as is, other content summarised, structured content with its verdict. */
export function toolResultMarkdown(record: ToolCallRecord): string {
  const { result, outputValidation } = record.outcome;
  const lines: string[] = [];
  lines.push(`# ${record.toolName} · ${record.serverName}`, '');
  lines.push(
    `_${vscode.l10n.t('Called {0} with these arguments, answered in {1} ms:', new Date().toLocaleString(), record.durationMs)}_`,
    '',
  );
  if (record.argumentsNote) lines.push(`_${record.argumentsNote}_`, '');
  lines.push(fence(printJson(record.args).text, 'json'), '');
  if (result.isError) lines.push(`## ⚠ ${vscode.l10n.t('Tool reported an error')}`, '');
  else lines.push(`## ${vscode.l10n.t('Result')}`, '');
  if (result.content.length === 0) lines.push(`_${vscode.l10n.t('(no content)')}_`, '');
  for (const block of result.content) lines.push(renderBlock(block), '');
  if (result.structuredContent !== undefined) {
    lines.push(`## ${vscode.l10n.t('Structured content')}`, '');
    lines.push(fence(printJson(result.structuredContent).text, 'json'), '');
  }
  const verdict = verdictLine(outputValidation, result.structuredContent !== undefined);
  if (verdict) lines.push(verdict, '');
  return lines.join('\n');
}

function renderBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `> ${vscode.l10n.t('Image ({0}, {1} bytes)', block.mimeType, base64Bytes(block.data))}`;
    case 'audio':
      return `> ${vscode.l10n.t('Audio ({0}, {1} bytes)', block.mimeType, base64Bytes(block.data))}`;
    case 'resource_link':
      return `> ${vscode.l10n.t('Resource link')}: [${block.name}](${block.uri})${block.mimeType ? ` (${block.mimeType})` : ''}`;
    case 'resource':
      return renderEmbedded(block.resource);
    default: {
      // A content type from a newer revision: show it raw rather than drop it.
      const unknownBlock: { type?: unknown } = block;
      return `> ${vscode.l10n.t('Content of type {0}', String(unknownBlock.type))}\n\n${fence(printJson(block).text, 'json')}`;
    }
  }
}

function renderEmbedded(resource: ResourceContents): string {
  const header = `> ${vscode.l10n.t('Embedded resource')}: \`${resource.uri}\`${resource.mimeType ? ` (${resource.mimeType})` : ''}`;
  if ('text' in resource && typeof resource.text === 'string') return `${header}\n\n${fence(resource.text, '')}`;
  if ('blob' in resource && typeof resource.blob === 'string')
    return `${header}, ${vscode.l10n.t('{0} bytes of binary data', base64Bytes(resource.blob))}`;
  return header;
}

function verdictLine(verdict: ValidationVerdict | undefined, hasStructured: boolean): string | undefined {
  if (!verdict)
    return hasStructured
      ? `_${vscode.l10n.t('The tool declares no output schema; structured content was not validated.')}_`
      : undefined;
  switch (verdict.kind) {
    case 'valid':
      return `✓ ${vscode.l10n.t('Structured content matches the output schema.')}`;
    case 'invalid':
      return [
        `✗ ${vscode.l10n.t('Structured content does not match the output schema:')}`,
        ...verdict.errors.map((error) => `- ${error}`),
      ].join('\n');
    case 'unchecked':
      return `_${vscode.l10n.t('Structured content was not validated: {0}', verdict.reason)}_`;
    default: {
      const exhaustive: never = verdict;
      return String(exhaustive);
    }
  }
}

function fence(text: string, language: string): string {
  // A fence longer than any backtick run inside the text keeps the block intact.
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${language}\n${text}\n${ticks}`;
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
