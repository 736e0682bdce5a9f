import * as vscode from 'vscode';
import type { ClientHost, ElicitationHandler, SamplingHandler } from '../../../protocol/host';
import type { Root } from '../../../protocol/types';

/**
 * The services VS Code lends every client. For now: roots (the workspace folders, kept current). Sampling and
 * elicitation plug in here later without touching the controllers.
 */
export function createWorkspaceHost(
  services: { sampling?: SamplingHandler; elicitation?: ElicitationHandler; rootsChanged?: vscode.Event<void> } = {},
): ClientHost {
  const rootsChanged = services.rootsChanged;
  return {
    sampling: services.sampling,
    elicitation: services.elicitation,
    roots: {
      listRoots: (): Root[] => (vscode.workspace.workspaceFolders ?? []).map((folder) => ({ uri: folder.uri.toString(), name: folder.name })),
      onDidChangeRoots: (listener) =>
        vscode.Disposable.from(vscode.workspace.onDidChangeWorkspaceFolders(() => listener()), ...(rootsChanged ? [rootsChanged(() => listener())] : [])),
    },
  };
}
