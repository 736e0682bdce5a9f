import * as vscode from 'vscode';
import type { ReadResourceResult, Resource, ResourceTemplate } from '../../../protocol/types';
import { parseUriTemplate, expandUriTemplate } from '../../../protocol/features/uriTemplate';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerCatalog } from '../../platform/servers/serverCatalog';
import { completer } from '../../platform/shared/completions';
import type { ServerManager } from '../../platform/servers/serverManager';
import { runningServer } from '../../platform/servers/serverPicker';
import { askWithCompletions } from '../../platform/ui/completionInput';
import { isObject, isStringRecord } from '../../../protocol/guards';
import { argumentField, pickItem } from '../../platform/ui/pickers';
import { readResourceWithFeedback } from './readResource';
import type { ResourceDocuments } from './resourceDocuments';
import type { ResourceSubscriptions } from '../../platform/servers/resourceSubscriptions';
import { showError } from '../../platform/ui/coreErrors';

const isResource = (value: unknown): value is Resource => isObject(value) && typeof value.uri === 'string';
const isTemplate = (value: unknown): value is ResourceTemplate =>
  isObject(value) && typeof value.uriTemplate === 'string';

/** What the resource commands work with; built once by the composition root. */
export interface ResourcesContext {
  manager: ServerManager;
  catalog: ServerCatalog;
  documents: ResourceDocuments;
  subscriptions: ResourceSubscriptions;
}

/** Read Resource: the tree row's resource, a `uri` argument, or one picked from the server's list. */
export async function readResource(
  context: ResourcesContext,
  argument: unknown,
): Promise<ReadResourceResult | undefined> {
  const controller = await runningServer(
    context.manager,
    argument,
    vscode.l10n.t('Select the MCP server whose resource to read'),
  );
  if (!controller) return undefined;
  const uri =
    argumentField(argument, 'resource', isResource)?.uri ??
    argumentField(argument, 'uri', (v): v is string => typeof v === 'string') ??
    (await pickResource(context, controller))?.uri;
  return uri ? readResourceWithFeedback(context.documents, controller, uri) : undefined;
}

/** Read Resource Template: each variable from `values` or asked with the server's completions. */
export async function readResourceTemplate(
  context: ResourcesContext,
  argument: unknown,
): Promise<ReadResourceResult | undefined> {
  const controller = await runningServer(
    context.manager,
    argument,
    vscode.l10n.t('Select the MCP server whose resource template to use'),
  );
  if (!controller) return undefined;
  const template = argumentField(argument, 'template', isTemplate) ?? (await pickTemplate(context, controller));
  if (!template) return undefined;
  const uri = await expandTemplate(controller, template, argumentField(argument, 'values', isStringRecord));
  return uri ? readResourceWithFeedback(context.documents, controller, uri) : undefined;
}

async function pickResource(context: ResourcesContext, controller: ServerController): Promise<Resource | undefined> {
  const offerings = await context.catalog.ready(controller);
  return pickItem(
    offerings?.resources ?? [],
    (resource) => ({ label: resource.title ?? resource.name, description: resource.mimeType, detail: resource.uri }),
    vscode.l10n.t('Select the resource of {0} to read', controller.name),
    vscode.l10n.t('MCP server "{0}" lists no resources.', controller.name),
  );
}

async function pickTemplate(
  context: ResourcesContext,
  controller: ServerController,
): Promise<ResourceTemplate | undefined> {
  const offerings = await context.catalog.ready(controller);
  return pickItem(
    offerings?.templates ?? [],
    (template) => ({
      label: template.title ?? template.name,
      description: template.mimeType,
      detail: template.uriTemplate,
    }),
    vscode.l10n.t('Select the resource template of {0}', controller.name),
    vscode.l10n.t('MCP server "{0}" lists no resource templates.', controller.name),
  );
}

/**
 * Fills each template variable (given `values` first, then one input per missing variable with the server's
 * completions, earlier answers passed as context) and expands the template per RFC 6570.
 */
async function expandTemplate(
  controller: ServerController,
  template: ResourceTemplate,
  given: Record<string, string> | undefined,
): Promise<string | undefined> {
  let names: string[];
  try {
    names = [...new Set(parseUriTemplate(template.uriTemplate).variables.map((variable) => variable.name))];
  } catch (error) {
    void showError(error, {
      server: controller,
      words: (reason) => vscode.l10n.t('The resource template {0} is malformed: {1}', template.uriTemplate, reason),
      logAs: `The resource template ${template.uriTemplate} is malformed`,
    });
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

/** Subscribe or Unsubscribe: `resources/subscribe` for the tree row's resource or a picked one. */
export async function toggleSubscription(
  context: ResourcesContext,
  argument: unknown,
  subscribe: boolean,
): Promise<void> {
  const controller = await runningServer(
    context.manager,
    argument,
    vscode.l10n.t('Select the MCP server whose resource to watch'),
  );
  if (!controller) return;
  const uri = argumentField(argument, 'resource', isResource)?.uri ?? (await pickResource(context, controller))?.uri;
  if (!uri) return;
  try {
    if (subscribe) await context.subscriptions.subscribe(controller, uri);
    else await context.subscriptions.unsubscribe(controller, uri);
  } catch (error) {
    void showError(error, {
      server: controller,
      words: (reason) => vscode.l10n.t('Could not change the subscription to {0}: {1}', uri, reason),
      logAs: `Could not change the subscription to ${uri}`,
    });
  }
}
