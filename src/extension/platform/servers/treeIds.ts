import type { ServerController } from './serverController';

/** A server's rows' id prefix: its id and epoch, so the rows of a restarted server are new rows to VS Code. */
export function nodeId(controller: ServerController): string {
  return `${controller.id}@${controller.epoch}`;
}
