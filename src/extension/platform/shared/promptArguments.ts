import * as vscode from 'vscode';
import { isObject } from '../../../protocol/guards';
import type { Prompt } from '../../../protocol/types';
import type { ServerController } from '../servers/serverController';
import { completer } from './completions';
import { askWithCompletions } from '../ui/completionInput';

/**
 * A prompt's arguments, one quick input each with the server's completions: Get Prompt (features/prompts) and the
 * playground's prompt attachments (features/playground) ask the same way.
 */
/** Asks each argument not given; optional ones may be left empty and are then not sent. */
export async function askPromptArguments(
  controller: ServerController,
  prompt: Prompt,
  given: Record<string, string> | undefined,
): Promise<Record<string, string> | undefined> {
  const declared = Array.isArray(prompt.arguments)
    ? prompt.arguments.filter((arg) => isObject(arg) && typeof arg.name === 'string')
    : [];
  const values: Record<string, string> = {};
  for (const [index, arg] of declared.entries()) {
    const preset = given?.[arg.name];
    const value =
      preset ??
      (await askWithCompletions({
        title: vscode.l10n.t('Prompt {0} ({1})', prompt.title ?? prompt.name, controller.name),
        prompt: `${arg.title ?? arg.name}${arg.description ? ` — ${arg.description}` : ''}`,
        required: arg.required === true,
        step: index + 1,
        totalSteps: declared.length,
        complete: completer(controller, { type: 'ref/prompt', name: prompt.name }, arg.name, values),
      }));
    if (value === undefined) return undefined;
    if (value !== '') values[arg.name] = value;
  }
  return values;
}
