import * as vscode from 'vscode';
import type { TraceDirection } from '../../../protocol/jsonrpc/mcpStreams';
import { maskSecrets } from '../../../workbench/secrets';
import { DEFAULT_INPUT_LIMITS } from '../../../protocol/limits/inputLimits';
import { jsonPreview } from '../../../workbench/display';

type TraceLevel = 'off' | 'messages' | 'verbose';
const TRACE_SETTING = 'trace.server';

function traceLevel(): TraceLevel {
  const value = vscode.workspace.getConfiguration('mcpWorkbench').get<string>(TRACE_SETTING, 'off');
  return value === 'messages' || value === 'verbose' ? value : 'off';
}

/**
 * The client's `trace` option, writing each JSON-RPC message to the server's channel: `messages` gives one line per
 * message (direction, kind, method, id), `verbose` adds the masked body. The setting is read per message so a change
 * applies to running servers at once. `knownSecrets` is asked each time: password inputs may be entered later.
 */
export function protocolTrace(
  log: vscode.LogOutputChannel,
  knownSecrets: () => readonly string[],
  maxTraceBytes = DEFAULT_INPUT_LIMITS.maxTraceBytes,
): (direction: TraceDirection, message: unknown) => void {
  return (direction, message) => {
    const level = traceLevel();
    if (level === 'off') return;
    const masked = maskSecrets(message, knownSecrets());
    const arrow = direction === 'send' ? '→' : '←';
    const summary = `[trace] ${arrow} ${describeMessage(masked)}`;
    // The body is cut at maxTraceBytes characters: a 200 MB result written whole would cost the host that much again.
    log.info(level === 'verbose' ? `${summary}\n${jsonPreview(masked, maxTraceBytes, 2)}` : summary);
  };
}

function describeMessage(message: unknown): string {
  if (typeof message !== 'object' || message === null) return typeof message;
  const record = message as Record<string, unknown>;
  const id = record.id === undefined ? '' : ` #${String(record.id)}`;
  if (typeof record.method === 'string')
    return `${record.id === undefined ? 'notification' : 'request'} ${record.method}${id}`;
  if ('error' in record) return `error response${id}`;
  if ('result' in record) return `response${id}`;
  return Array.isArray(message) ? `batch of ${message.length}` : 'message';
}
