import * as vscode from 'vscode';
import { errorMessage } from '../../protocol/errors';
import type { Resource, ResourceTemplate } from '../../protocol/types';
import { parseUriTemplate, expandUriTemplate } from '../../protocol/features/uriTemplate';
import type { ServerController } from '../servers/serverController';
import type { BrowseContext } from '../browse/browseContext';
import { argumentField, isObject, isStringRecord, pickItem, runningServer } from '../ui/pickers';
import { askWithCompletions } from '../ui/completionInput';
import { readResourceWithFeedback } from './readResource';

const isResource = (value: unknown): value is Resource => isObject(value) && typeof value.uri === 'string';
const isTemplate = (value: unknown): value is ResourceTemplate => isObject(value) && typeof value.uriTemplate === 'string';

/** Read Resource, Read Resource Template, Subscribe and Unsubscribe. */
export function registerResourceCommands(context: BrowseContext): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand('mcpWorkbench.readResource', async (argument?: unknown) => {
      const controller = await runningServer(context.manager, argument, vscode.l10n.t('Select the MCP server whose resource to read'));
      if (!controller) return undefined;
      const uri = argumentField(argument, 'resource', isResource)?.uri ?? argumentField(argument, 'uri', (v): v is string => typeof v === 'string') ?? (await pickResource(context, controller))?.uri;
      return uri ? readResourceWithFeedback(context, controller, uri) : undefined;
    }),
    vscode.commands.registerCommand('mcpWorkbench.readResourceTemplate', async (argument?: unknown) => {
      const controller = await runningServer(context.manager, argument, vscode.l10n.t('Select the MCP server whose resource template to use'));
      if (!controller) return undefined;
      const template = argumentField(argument, 'template', isTemplate) ?? (await pickTemplate(context, controller));
      if (!template) return undefined;
      const uri = await expandTemplate(controller, template, argumentField(argument, 'values', isStringRecord));
      return uri ? readResourceWithFeedback(context, controller, uri) : undefined;
    }),
    vscode.commands.registerCommand('mcpWorkbench.subscribeResource', (argument?: unknown) => toggleSubscription(context, argument, true)),
    vscode.commands.registerCommand('mcpWorkbench.unsubscribeResource', (argument?: unknown) => toggleSubscription(context, argument, false)),
  );
}

async function pickResource(context: BrowseContext, controller: ServerController): Promise<Resource | undefined> {
  const offerings = await context.catalog.ready(controller);
  return pickItem(
    offerings?.resources ?? [],
    (resource) => ({ label: resource.title ?? resource.name, description: resource.mimeType, detail: resource.uri }),
    vscode.l10n.t('Select the resource of {0} to read', controller.name),
    vscode.l10n.t('MCP server "{0}" lists no resources.', controller.name),
  );
}

async function pickTemplate(context: BrowseContext, controller: ServerController): Promise<ResourceTemplate | undefined> {
  const offerings = await context.catalog.ready(controller);
  return pickItem(
    offerings?.templates ?? [],
    (template) => ({ label: template.title ?? template.name, description: template.mimeType, detail: template.uriTemplate }),
    vscode.l10n.t('Select the resource template of {0}', controller.name),
    vscode.l10n.t('MCP server "{0}" lists no resource templates.', controller.name),
  );
}

/**
 * Fills each template variable (given `values` first, then one input per missing variable with the server's
 * completions, earlier answers passed as context) and expands the template per RFC 6570.
 */
async function expandTemplate(controller: ServerController, template: ResourceTemplate, given: Record<string, string> | undefined): Promise<string | undefined> {
  let names: string[];
  try {
    names = [...new Set(parseUriTemplate(template.uriTemplate).variables.map((variable) => variable.name))];
  } catch (error) {
    void vscode.window.showErrorMessage(vscode.l10n.t('The resource template {0} is malformed: {1}', template.uriTemplate, errorMessage(error)));
    return undefined;
  }
  const values: Record<string, string> = {};
  for (const [index, name] of names.entries()) {
    const preset = given?.[name];
    const value =
      preset ??
      (await askWithCompletions({
        title: vscode.l10n.t('{0}: {1}', template.title ?? template.name, template.uriTemplate),
        prompt: vscode.l10n.t('Value of {0}', name),
        required: true,
        step: index + 1,
        totalSteps: names.length,
        complete: completer(controller, { type: 'ref/resource', uri: template.uriTemplate }, name, values),
      }));
    if (value === undefined) return undefined;
    values[name] = value;
  }
  return expandUriTemplate(template.uriTemplate, values);
}

/** `completion/complete` for one argument, or undefined when the server does not offer completions. */
export function completer(
  controller: ServerController,
  ref: { type: 'ref/resource'; uri: string } | { type: 'ref/prompt'; name: string },
  name: string,
  earlier: Record<string, string>,
): ((value: string) => Promise<string[]>) | undefined {
  const client = controller.client;
  if (!client || client.state.kind !== 'ready' || !client.session.capabilities.completions) return undefined;
  return async (value) => {
    const context = Object.keys(earlier).length > 0 ? { ...earlier } : undefined;
    const completion = await client.complete(ref, { name, value }, context);
    return Array.isArray(completion.values) ? completion.values.filter((v): v is string => typeof v === 'string') : [];
  };
}

async function toggleSubscription(context: BrowseContext, argument: unknown, subscribe: boolean): Promise<void> {
  const controller = await runningServer(context.manager, argument, vscode.l10n.t('Select the MCP server whose resource to watch'));
  if (!controller) return;
  const uri = argumentField(argument, 'resource', isResource)?.uri ?? (await pickResource(context, controller))?.uri;
  if (!uri) return;
  try {
    if (subscribe) await context.subscriptions.subscribe(controller, uri);
    else await context.subscriptions.unsubscribe(controller, uri);
  } catch (error) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not change the subscription to {0}: {1}', uri, errorMessage(error)));
  }
}
