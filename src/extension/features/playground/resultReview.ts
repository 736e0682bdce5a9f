import * as vscode from 'vscode';
import type { LoopToolCall } from '../../../workbench/evals/toolLoop';
import { escapeForDisplay } from '../../../workbench/urlPolicy';

/** Characters of the arguments, and of the result, shown in the question: a modal is not a viewer. */
const MAX_ARGUMENT_CHARS = 600;
const MAX_RESULT_CHARS = 2000;

/**
 * A tool whose agent rule is Review Result (the gateway's per-tool policy) has its result shown to the person before
 * the model reads it, as the gateway does before an agent does: a result can carry instructions aimed at the model.
 * Everything shown is the server's or the model's text: escaped and cut. The first button, Withhold, is the safe one
 * (VS Code makes the first item the default, so a stray Enter sends nothing); Escape withholds too.
 */
export async function reviewResult(
  call: LoopToolCall,
  result: { text: string; isError: boolean },
  signal: AbortSignal,
): Promise<boolean> {
  const send = vscode.l10n.t('Send to Model');
  const withhold = vscode.l10n.t('Withhold');
  const picked = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      'Tool "{0}" of MCP server "{1}" answered. Send this result to the model?',
      escapeForDisplay(call.tool.name),
      escapeForDisplay(call.server.serverName),
    ),
    {
      modal: true,
      detail: [
        vscode.l10n.t('Arguments: {0}', cut(JSON.stringify(call.arguments) ?? '', MAX_ARGUMENT_CHARS)),
        vscode.l10n.t('Result: {0}', cut(result.text, MAX_RESULT_CHARS)),
        vscode.l10n.t('A result can carry instructions aimed at the model. Withhold sends it an error instead.'),
      ].join('\n\n'),
    },
    { title: withhold },
    { title: send },
  );
  // A run stopped meanwhile sends nothing.
  return picked?.title === send && !signal.aborted;
}

function cut(text: string, max: number): string {
  const shown = text.length > max ? `${text.slice(0, max)}…` : text;
  // Line by line: the result's line breaks stay breaks, every other control or direction character is escaped.
  return shown.split('\n').map(escapeForDisplay).join('\n');
}
