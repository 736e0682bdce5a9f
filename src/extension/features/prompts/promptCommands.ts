import * as vscode from 'vscode';
import { errorMessage } from '../../../protocol/errors';
import type { Prompt } from '../../../protocol/types';
import type { HistoryOutcome, HistoryRecording } from '../../../workbench/history/historyLog';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerCatalog } from '../../platform/servers/serverCatalog';
import type { ServerManager } from '../../platform/servers/serverManager';
import { runningServer } from '../../platform/servers/serverPicker';
import { askPromptArguments } from '../../platform/shared/promptArguments';
import { isObject, isStringRecord } from '../../../protocol/guards';
import { argumentField, pickItem } from '../../platform/ui/pickers';
import { promptMarkdown } from './promptMarkdown';
import { showError } from '../../platform/ui/coreErrors';

/** What Get Prompt works with; `documents` opens Markdown in a read-only tab (the tool result documents). */
interface PromptsContext {
  manager: ServerManager;
  catalog: ServerCatalog;
  documents: { show(title: string, markdown: string): Thenable<vscode.TextEditor> };
  history: HistoryRecording;
}

const isPrompt = (value: unknown): value is Prompt => isObject(value) && typeof value.name === 'string';

/** Get Prompt: arguments one by one with the server's completions; the messages open as a Markdown document. */
export async function getPrompt(context: PromptsContext, argument: unknown): Promise<vscode.TextEditor | undefined> {
  const controller = await runningServer(
    context.manager,
    argument,
    vscode.l10n.t('Select the MCP server whose prompt to get'),
  );
  if (!controller) return undefined;
  const prompt = argumentField(argument, 'prompt', isPrompt) ?? (await pickPrompt(context, controller));
  if (!prompt) return undefined;
  const args = await askPromptArguments(controller, prompt, argumentField(argument, 'arguments', isStringRecord));
  if (!args) return undefined;
  const startedAt = Date.now();
  const record = (outcome: HistoryOutcome, result?: unknown): void => {
    context.history.record({
      server: { id: controller.id, name: controller.name },
      startedAt,
      durationMs: Date.now() - startedAt,
      operation: { kind: 'prompt', promptName: prompt.name, arguments: args },
      outcome,
      result,
    });
  };
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Getting prompt {0}', prompt.name) },
      async () => {
        const client = controller.client;
        if (!client) throw new Error(vscode.l10n.t('MCP server "{0}" is not running', controller.name));
        return client.getPrompt(prompt.name, args);
      },
    );
    controller.log.info(`Got prompt ${prompt.name} (${result.messages.length} messages)`);
    record({ kind: 'succeeded' }, result);
    return context.documents.show(`${prompt.name} prompt`, promptMarkdown(controller.name, prompt.name, args, result));
  } catch (error) {
    record({ kind: 'failed', message: errorMessage(error) });
    void showError(error, {
      server: controller,
      words: (reason) => vscode.l10n.t('Getting prompt {0} failed: {1}', prompt.name, reason),
      logAs: `Getting prompt ${prompt.name} failed`,
    });
    return undefined;
  }
}

async function pickPrompt(context: PromptsContext, controller: ServerController): Promise<Prompt | undefined> {
  const offerings = await context.catalog.ready(controller);
  return pickItem(
    offerings?.prompts ?? [],
    (prompt) => ({ label: prompt.name, description: prompt.title, detail: prompt.description?.split('\n', 1)[0] }),
    vscode.l10n.t('Select the prompt of {0}', controller.name),
    vscode.l10n.t('MCP server "{0}" lists no prompts.', controller.name),
  );
}
