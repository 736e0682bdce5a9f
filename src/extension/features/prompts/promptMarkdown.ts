import * as vscode from 'vscode';
import type { ContentBlock, GetPromptResult } from '../../../protocol/types';
import { base64Bytes } from '../../platform/ui/mimeLanguage';

/** A prompt's messages as Markdown: one heading per message with its role, text as is, other content summarised. */
export function promptMarkdown(
  serverName: string,
  promptName: string,
  args: Record<string, string>,
  result: GetPromptResult,
): string {
  const lines: string[] = [`# ${promptName} · ${serverName}`, ''];
  if (result.description) lines.push(`_${result.description}_`, '');
  const argLines = Object.entries(args).map(([name, value]) => `- **${name}**: ${value}`);
  if (argLines.length) lines.push(`**${vscode.l10n.t('Arguments')}**`, '', ...argLines, '');
  for (const [index, message] of result.messages.entries()) {
    const role =
      message.role === 'assistant'
        ? vscode.l10n.t('Assistant')
        : message.role === 'user'
          ? vscode.l10n.t('User')
          : String(message.role);
    lines.push(`## ${index + 1}. ${role}`, '', blockMarkdown(message.content), '');
  }
  if (result.messages.length === 0) lines.push(`_${vscode.l10n.t('(no messages)')}_`, '');
  return lines.join('\n');
}

function blockMarkdown(block: ContentBlock): string {
  switch (block?.type) {
    case 'text':
      return String(block.text);
    case 'image':
      return `> ${vscode.l10n.t('Image ({0}, {1} bytes)', String(block.mimeType), base64Bytes(String(block.data)))}`;
    case 'audio':
      return `> ${vscode.l10n.t('Audio ({0}, {1} bytes)', String(block.mimeType), base64Bytes(String(block.data)))}`;
    case 'resource_link':
      return `> ${vscode.l10n.t('Resource link')}: ${String(block.name)} \`${String(block.uri)}\``;
    case 'resource': {
      const resource = block.resource;
      const header = `> ${vscode.l10n.t('Embedded resource')}: \`${String(resource?.uri)}\`${resource?.mimeType ? ` (${resource.mimeType})` : ''}`;
      if (resource && 'text' in resource && typeof resource.text === 'string')
        return `${header}\n\n${fence(resource.text)}`;
      if (resource && 'blob' in resource && typeof resource.blob === 'string')
        return `${header}, ${vscode.l10n.t('{0} bytes of binary data', base64Bytes(resource.blob))}`;
      return header;
    }
    default:
      return fence(JSON.stringify(block, null, 2));
  }
}

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}\n${text}\n${ticks}`;
}
