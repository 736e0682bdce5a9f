import * as vscode from 'vscode';
import type { ReadResourceResult } from '../../../protocol/types';
import type { ServerController } from '../../platform/servers/serverController';
import { canPreviewImage, showImagePreview } from './imagePreview';
import type { ResourceDocuments } from './resourceDocuments';
import { showError } from '../../platform/ui/coreErrors';

/** Reads a resource into an editor, with an image preview for binary images; failures become a notification. */
export async function readResourceWithFeedback(
  documents: ResourceDocuments,
  controller: ServerController,
  uri: string,
): Promise<ReadResourceResult | undefined> {
  try {
    const { result } = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading {0}', uri) },
      () => documents.open(controller, uri),
    );
    for (const part of result.contents) {
      if ('blob' in part && typeof part.blob === 'string' && canPreviewImage(part.mimeType))
        showImagePreview(part.uri, part.mimeType ?? '', part.blob);
    }
    return result;
  } catch (error) {
    void showError(error, {
      server: controller,
      words: (reason) => vscode.l10n.t('Reading {0} from {1} failed: {2}', uri, controller.name, reason),
      logAs: `Reading ${uri} failed`,
    });
    return undefined;
  }
}
