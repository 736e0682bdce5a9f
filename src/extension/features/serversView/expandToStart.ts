import type { ServerController } from '../../platform/servers/serverController';
import { ServerState } from '../../platform/servers/serverState';

/**
 * Expanding a stopped (or failed) server's row starts it: the person asked to see its tools. VS Code tells the
 * extension through onDidExpandElement, but drops that event when it comes while the view's root is being refreshed
 * (the extension host forgets every row until VS Code asks for the rows again), and the row then stays expanded and
 * stopped. VS Code does ask an expanded row for its children after such a refresh, so a stopped server asked for its
 * children is started too, once per phase of the server (its epoch): a refresh of a row whose start was already
 * asked for (say, refused in an untrusted workspace) does not ask again.
 */
export class ExpandToStart {
  private readonly askedInEpoch = new WeakMap<ServerController, number>();

  constructor(private readonly start: (controller: ServerController) => void) {}

  /** The row was expanded (onDidExpandElement). */
  expanded(controller: ServerController): void {
    this.askedInEpoch.set(controller, controller.epoch);
    if (!ServerState.canStart(controller.state)) return;
    controller.log.info('Starting: its row was expanded in the Servers view');
    this.start(controller);
  }

  /** VS Code asked a stopped server's row for its children: it is expanded, whether or not the event came. */
  childrenAsked(controller: ServerController): void {
    if (this.askedInEpoch.get(controller) === controller.epoch) return;
    // Not from inside getChildren: a start changes the state, which refreshes the view that is asking.
    queueMicrotask(() => {
      if (this.askedInEpoch.get(controller) !== controller.epoch) this.expanded(controller);
    });
  }
}
