import * as vscode from 'vscode';
import type { Prompt, Resource } from '../../../protocol/types';
import { promptAttachment, resourceAttachment, type Attachment } from '../../../workbench/evals/attachments';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import type { Platform } from '../../platform/platform';
import type { ServerController } from '../../platform/servers/serverController';
import { askPromptArguments } from '../../platform/shared/promptArguments';
import { showError } from '../../platform/ui/coreErrors';

type Choice = vscode.QuickPickItem & { controller?: ServerController; resource?: Resource; prompt?: Prompt };

/**
 * Attach…: one of the chosen servers' resources (read through its client) or prompts (its arguments asked with Get
 * Prompt's quick inputs, got through the client), as the bounded text the next request carries. Undefined when the
 * person cancels or the server fails (the failure is shown).
 */
export async function pickAttachment(
  platform: Platform,
  controllers: readonly ServerController[],
): Promise<Attachment | undefined> {
  const items: Choice[] = [];
  for (const controller of controllers) {
    const offerings = await platform.catalog.ready(controller);
    const resources = offerings?.resources ?? [];
    const prompts = offerings?.prompts ?? [];
    if (resources.length + prompts.length === 0) continue;
    items.push({ label: escapeForDisplay(controller.name), kind: vscode.QuickPickItemKind.Separator });
    for (const resource of resources)
      items.push({
        label: `$(file) ${escapeForDisplay(resource.name ?? resource.uri)}`,
        description: escapeForDisplay(resource.uri),
        controller,
        resource,
      });
    for (const prompt of prompts)
      items.push({
        label: `$(comment) ${escapeForDisplay(prompt.title ?? prompt.name)}`,
        description: vscode.l10n.t('prompt'),
        ...(prompt.description ? { detail: escapeForDisplay(prompt.description.split('\n', 1)[0] ?? '') } : {}),
        controller,
        prompt,
      });
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('The chosen servers list no resources and no prompts.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder: vscode.l10n.t('Attach which resource or prompt to the next request?'),
    matchOnDescription: true,
    ignoreFocusOut: true,
  });
  const controller = picked?.controller;
  if (!controller) return undefined;
  try {
    const client = controller.client;
    if (!client) throw new Error(vscode.l10n.t('{0} is not running.', controller.name));
    if (picked.resource)
      return resourceAttachment(controller.name, picked.resource.uri, await client.readResource(picked.resource.uri));
    if (picked.prompt) {
      const args = await askPromptArguments(controller, picked.prompt, undefined);
      if (!args) return undefined;
      return promptAttachment(controller.name, picked.prompt.name, await client.getPrompt(picked.prompt.name, args));
    }
  } catch (error) {
    void showError(error, {
      server: controller,
      words: (reason) => vscode.l10n.t('Could not attach it: {0}', reason),
      logAs: 'Could not attach to the playground request',
    });
  }
  return undefined;
}
