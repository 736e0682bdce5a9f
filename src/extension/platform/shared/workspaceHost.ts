import * as vscode from 'vscode';
import type { ClientHost, ElicitationHandler, SamplingHandler } from '../../../protocol/host';
import type { Root } from '../../../protocol/types';

/**
 * The services VS Code lends every client: roots (the workspace folders, kept current), and sampling and elicitation
 * as the features that answer them lend them (read when a client is made, so a feature activated later still counts).
 */
export function createWorkspaceHost(services: {
  sampling?: () => SamplingHandler | undefined;
  elicitation?: () => ElicitationHandler | undefined;
  rootsChanged?: vscode.Event<void>;
}): ClientHost {
  const rootsChanged = services.rootsChanged;
  return {
    get sampling() {
      return services.sampling?.();
    },
    get elicitation() {
      return services.elicitation?.();
    },
    roots: {
      listRoots: (): Root[] =>
        (vscode.workspace.workspaceFolders ?? []).map((folder) => ({ uri: folder.uri.toString(), name: folder.name })),
      onDidChangeRoots: (listener) =>
        vscode.Disposable.from(
          vscode.workspace.onDidChangeWorkspaceFolders(() => listener()),
          ...(rootsChanged ? [rootsChanged(() => listener())] : []),
        ),
    },
  };
}
