import type * as vscode from 'vscode';
import type { ServerSession } from '../../../protocol/client';
import type { ServerManager } from '../../platform/servers/serverManager';

/**
 * When each server last started in this window (a new session), so Save as Test can tell answers of the process
 * running now from those of one before it: dev mode restarts a server on every save, and History keeps the answers
 * of every build side by side.
 */
export class ServerStarts implements vscode.Disposable {
  private readonly latest = new Map<string, { session: ServerSession; at: number }>();
  private readonly subscription: vscode.Disposable;

  constructor(manager: ServerManager) {
    this.subscription = manager.onDidChangeServerState((controller) => {
      const state = controller.state;
      // A new tool list fires a state change too: only a new session is a start.
      if (state.kind === 'running' && this.latest.get(controller.id)?.session !== state.session)
        this.latest.set(controller.id, { session: state.session, at: Date.now() });
    });
  }

  latestStart(serverId: string): number | undefined {
    return this.latest.get(serverId)?.at;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
