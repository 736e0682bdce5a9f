import * as vscode from 'vscode';
import { errorMessage } from '../../../protocol/errors';
import type { ReadResourceResult } from '../../../protocol/types';
import type { ServerController } from '../../platform/servers/serverController';
import { canPreviewImage, showImagePreview } from './imagePreview';
import type { ResourceDocuments } from './resourceDocuments';

/** Reads a resource into an editor, with an image preview for binary images; failures become a notification. */
export async function readResourceWithFeedback(documents: ResourceDocuments, controller: ServerController, uri: string): Promise<ReadResourceResult | undefined> {
  try {
    const { result } = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading {0}', uri) },
      () => documents.open(controller, uri),
    );
    for (const part of result.contents) {
      if ('blob' in part && typeof part.blob === 'string' && canPreviewImage(part.mimeType)) showImagePreview(part.uri, part.mimeType ?? '', part.blob);
    }
    return result;
  } catch (error) {
    controller.log.error(`Reading ${uri} failed: ${errorMessage(error)}`);
    void controller.notify('error', vscode.l10n.t('Reading {0} from {1} failed: {2}', uri, controller.name, errorMessage(error)));
    return undefined;
  }
}
