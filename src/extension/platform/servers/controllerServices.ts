import type * as vscode from 'vscode';
import type { ClientHost } from '../../../protocol/host';
import type { GiveUp, RestartPolicy } from '../../../workbench/lifecycle/restartPolicy';
import type { SignInService } from '../auth/signIn';
import type { InputPrompter } from '../config/inputPrompter';
import type { MementoEraMemory } from './eraMemory';
import type { LaunchConfirmation } from './launchConfirmation';
import type { ServerController } from './serverController';
import type { LaunchServices } from './serverLauncher';

/** What a server's controller is lent by the manager that owns it. */
export interface ServerControllerServices {
  host: ClientHost;
  log: vscode.LogOutputChannel;
  inputs: InputPrompter;
  confirmation: LaunchConfirmation;
  isWorkspaceTrusted(): boolean;
  /** Builds the crash policy; tests may shorten its delays. */
  restartPolicy?: () => RestartPolicy;
  /** Builds the OAuth authorizer of HTTP servers (tokens in SecretStorage, consent before the browser opens). */
  auth: SignInService;
  /** Tells the user that automatic restarts stopped (a background event, so no caller can report it). */
  reportGaveUp(controller: ServerController, giveUp: GiveUp): void;
  /** Where era "auto" remembers a server that was slow to answer the probe. */
  eraMemory?: MementoEraMemory;
  /** The server's wire observer for the Protocol view (LaunchServices.wire). */
  wire?: LaunchServices['wire'];
  /** Dev mode's debugger (LaunchServices.debug). */
  debug?: LaunchServices['debug'];
}
