import * as vscode from 'vscode';
import { RestartPolicy } from '../../workbench/lifecycle/restartPolicy';

/**
 * What the platform takes from the window it runs in. The product passes VS Code's own (`windowHost`); the test build
 * passes a host whose trust, folder changes and crash policy a suite controls (testHooks.ts), so the product holds no
 * switch for tests.
 */
export interface PlatformHost {
  /** Whether the workspace is trusted now. */
  isWorkspaceTrusted(): boolean;
  /** Fires when the person grants the workspace trust. */
  readonly onDidGrantWorkspaceTrust: vscode.Event<void>;
  /** Fires when the roots change besides VS Code's own workspace-folder event (which the roots provider hears itself). */
  readonly onDidChangeRoots?: vscode.Event<void>;
  /** Each server's crash restart policy, made when the server is configured. */
  restartPolicy(): RestartPolicy;
  /** Opens a sign-in's authorization URL (undefined: VS Code's openExternal, after the consent). */
  readonly openSignInUrl?: (url: string) => Thenable<boolean>;
  /** Whether the first activation in a profile opens the walkthrough (ui/firstRun.ts). */
  readonly firstRunWalkthrough: boolean;
}

/** The window as it is: VS Code's trust and the default crash policy. */
export function windowHost(): PlatformHost {
  return {
    isWorkspaceTrusted: () => vscode.workspace.isTrusted,
    onDidGrantWorkspaceTrust: vscode.workspace.onDidGrantWorkspaceTrust,
    restartPolicy: () => new RestartPolicy(),
    firstRunWalkthrough: true,
  };
}
