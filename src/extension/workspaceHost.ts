import * as vscode from 'vscode';
import type { ClientHost, ElicitationHandler, SamplingHandler } from '../core/host';
import type { Root } from '../core/protocol/types';

/**
 * The services VS Code lends every client. For now: roots (the workspace folders, kept current). Sampling and
 * elicitation plug in here later without touching the controllers.
 */
export function createWorkspaceHost(services: { sampling?: SamplingHandler; elicitation?: ElicitationHandler } = {}): ClientHost {
  return {
    sampling: services.sampling,
    elicitation: services.elicitation,
    roots: {
      listRoots: (): Root[] => (vscode.workspace.workspaceFolders ?? []).map((folder) => ({ uri: folder.uri.toString(), name: folder.name })),
      onDidChangeRoots: (listener) => vscode.workspace.onDidChangeWorkspaceFolders(() => listener()),
    },
  };
}
