import * as vscode from 'vscode';
import type { JsonObject } from '../../../protocol/types';
import type { AgentToolCall, ToolPolicyHost } from '../../../workbench/gateway/toolPolicy';
import { escapeForDisplay } from '../../../workbench/urlPolicy';

/** Characters of the arguments, and of the result, shown in a question: a modal is not a viewer. */
const MAX_ARGUMENT_CHARS = 600;
const MAX_RESULT_CHARS = 2000;

/**
 * The person's answers to the tool policy's questions (`ask` before a call, `review` before a result reaches the
 * agent), as modals. Everything in them is the agent's or the server's text: escaped and cut. The first button is
 * the safe one (Decline, Withhold): VS Code makes the first item the default, so a stray Enter allows nothing (see
 * askSafeDefault.ts); Escape and Cancel are the safe answer too.
 */
export function agentToolPrompts(): ToolPolicyHost {
  return {
    ask: async (call, signal) => {
      const allow = vscode.l10n.t('Allow');
      const decline = vscode.l10n.t('Decline');
      const picked = await vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Agent "{0}" wants to call tool "{1}" of MCP server "{2}". Allow this call?',
          agentText(call),
          escapeForDisplay(call.tool),
          escapeForDisplay(call.server),
        ),
        {
          modal: true,
          detail: vscode.l10n.t('Arguments: {0}', cutJson(call.arguments, MAX_ARGUMENT_CHARS)),
        },
        { title: decline },
        { title: allow },
      );
      // An agent that gave up meanwhile gets nothing run for it.
      return picked?.title === allow && !signal.aborted;
    },
    review: async (call, signal) => {
      const send = vscode.l10n.t('Send to Agent');
      const withhold = vscode.l10n.t('Withhold');
      const picked = await vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Tool "{0}" of MCP server "{1}" answered agent "{2}". Send this result to the agent?',
          escapeForDisplay(call.tool),
          escapeForDisplay(call.server),
          agentText(call),
        ),
        {
          modal: true,
          detail: [
            vscode.l10n.t('Arguments: {0}', cutJson(call.arguments, MAX_ARGUMENT_CHARS)),
            vscode.l10n.t('Result: {0}', resultText(call.result)),
            vscode.l10n.t('A result can carry instructions aimed at the agent. Withhold sends it an error instead.'),
          ].join('\n\n'),
        },
        { title: withhold },
        { title: send },
      );
      return picked?.title === send && !signal.aborted;
    },
  };
}

function agentText(call: AgentToolCall): string {
  const agent = call.agent;
  if (!agent) return '?';
  return escapeForDisplay(agent.version ? `${agent.name} ${agent.version}` : agent.name || '?');
}

function cutJson(value: unknown, max: number): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? '';
  } catch {
    text = '…';
  }
  return escapeForDisplay(text.length > max ? `${text.slice(0, max)}…` : text);
}

/** The result's text blocks as they read, else its JSON; cut and escaped. */
function resultText(result: JsonObject): string {
  const content = Array.isArray(result.content) ? (result.content as { type?: unknown; text?: unknown }[]) : [];
  const texts = content.filter((block) => block.type === 'text' && typeof block.text === 'string');
  if (texts.length === content.length && texts.length > 0 && result.structuredContent === undefined) {
    const text = texts.map((block) => block.text as string).join('\n');
    const cut = text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS)}…` : text;
    // Line by line: the result's line breaks stay breaks, every other control or direction character is escaped.
    return cut.split('\n').map(escapeForDisplay).join('\n');
  }
  return cutJson(result, MAX_RESULT_CHARS);
}
