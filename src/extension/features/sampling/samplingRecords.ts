import * as vscode from 'vscode';
import type { SamplingOutcome, SamplingRecord } from '../../../workbench/sampling/coordinator';

const CAP_PER_SERVER = 200;

/** Every sampling exchange of this session, per server (capped), for "MCP Workbench: Show Sampling History". */
export class SamplingRecords implements vscode.Disposable {
  private readonly records = new Map<string, SamplingRecord[]>();
  private readonly changed = new vscode.EventEmitter<SamplingRecord>();
  readonly onDidRecord = this.changed.event;

  add(record: SamplingRecord): void {
    let list = this.records.get(record.serverName);
    if (!list) {
      list = [];
      this.records.set(record.serverName, list);
    }
    list.push(record);
    if (list.length > CAP_PER_SERVER) list.splice(0, list.length - CAP_PER_SERVER);
    this.changed.fire(record);
  }

  of(serverName: string): readonly SamplingRecord[] {
    return this.records.get(serverName) ?? [];
  }

  servers(): string[] {
    return [...this.records.keys()].sort();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function outcomeLabel(outcome: SamplingOutcome): string {
  switch (outcome) {
    case 'approved':
      return vscode.l10n.t('approved');
    case 'auto-approved':
      return vscode.l10n.t('approved automatically (policy)');
    case 'rejected-request':
      return vscode.l10n.t('request rejected');
    case 'rejected-response':
      return vscode.l10n.t('response rejected');
    case 'blocked':
      return vscode.l10n.t('blocked (policy "never")');
    case 'cancelled':
      return vscode.l10n.t('cancelled');
    case 'failed':
      return vscode.l10n.t('failed');
    default: {
      const exhaustive: never = outcome;
      return String(exhaustive);
    }
  }
}

/** The sampling records of one server as markdown: one section per exchange, newest first. */
export function samplingRecordsMarkdown(serverName: string, records: readonly SamplingRecord[]): string {
  const lines = [`# ${vscode.l10n.t('Sampling history of {0}', serverName)}`, ''];
  if (records.length === 0) lines.push(vscode.l10n.t('No sampling requests in this session.'));
  for (const record of [...records].reverse()) {
    const tokens =
      record.inputTokens !== undefined || record.outputTokens !== undefined
        ? vscode.l10n.t('{0} in / {1} out', String(record.inputTokens ?? '?'), String(record.outputTokens ?? '?'))
        : vscode.l10n.t('unknown');
    lines.push(`## ${new Date(record.time).toLocaleString()} — ${outcomeLabel(record.outcome)}`, '');
    lines.push(`- ${vscode.l10n.t('Model')}: ${record.model ?? '—'}`);
    lines.push(`- ${vscode.l10n.t('Tokens')}: ${tokens}`);
    if (record.error) lines.push(`- ${vscode.l10n.t('Error')}: ${record.error}`);
    const edits = [
      record.originalRequestText !== undefined ? vscode.l10n.t('request') : '',
      record.modelResponseText !== undefined ? vscode.l10n.t('response') : '',
    ].filter(Boolean);
    if (edits.length > 0) lines.push(`- ⚠ ${vscode.l10n.t('Edited by the reviewer')}: ${edits.join(', ')}`);
    if (record.originalRequestText !== undefined)
      lines.push(
        '',
        `**${vscode.l10n.t('Request from the server (before the edit)')}**`,
        '',
        fence(record.originalRequestText),
      );
    lines.push(
      '',
      `**${record.originalRequestText !== undefined ? vscode.l10n.t('Request as sent to the model') : vscode.l10n.t('Request')}**`,
      '',
      fence(record.requestText),
    );
    if (record.modelResponseText !== undefined)
      lines.push(`**${vscode.l10n.t('Answer of the model (before the edit)')}**`, '', fence(record.modelResponseText));
    if (record.responseText !== undefined) {
      lines.push(
        `**${record.modelResponseText !== undefined ? vscode.l10n.t('Response as sent to the server') : vscode.l10n.t('Response')}**`,
        '',
        fence(record.responseText),
      );
    }
  }
  return lines.join('\n');
}

/** One log line per exchange (plain text; keys never reach a record). */
export function logRecord(channel: vscode.LogOutputChannel, record: SamplingRecord): void {
  const head =
    `[sampling] ${record.outcome}${record.model ? ` model=${record.model}` : ''}` +
    (record.inputTokens !== undefined ? ` tokens=${record.inputTokens}/${record.outputTokens ?? '?'}` : '');
  const body =
    `\n  request: ${indent(record.requestText)}` +
    (record.responseText !== undefined ? `\n  response: ${indent(record.responseText)}` : '') +
    (record.error ? `\n  error: ${record.error}` : '');
  if (record.outcome === 'failed') channel.error(head + body);
  else channel.info(head + body);
}

function indent(text: string): string {
  return text.replace(/\n/g, '\n    ');
}

function fence(text: string): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const marker = '`'.repeat(longest + 1);
  return `${marker}text\n${text}\n${marker}\n`;
}
