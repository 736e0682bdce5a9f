import { enableExtension, type EnabledExtension } from '../protocolExtension';
import { tasksExtension } from './tasksExtension';
import { tasksServices, type TasksServices, type TasksServicesOptions } from './taskServices';

export {
  MAX_KEPT_ARGUMENT_CHARS,
  type ArgumentKeeper,
  type KeptArguments,
  type TaskBook,
  type TrackedTask,
} from './taskBook';
export {
  MAX_POLL_INTERVAL_MS,
  MIN_POLL_INTERVAL_MS,
  TaskFailedError,
  isTerminal,
  nextPollDelayMs,
  type TaskSnapshot,
  type TaskStatusKind,
} from './taskModel';
export { RELATED_TASK_META } from './taskMethods';
export { tasksExtension, type TaskMode, type TasksApi } from './tasksExtension';
export { TASKS_API } from './tasksKey';
export type { TaskReceiverOptions } from './taskServices';

/** The tasks extension enabled for one client, with fresh services (its own task book). */
export function enableTasks(
  serverName: string,
  options: TasksServicesOptions = {},
): { extension: EnabledExtension; services: TasksServices } {
  const services = tasksServices(serverName, options);
  return { extension: enableExtension(tasksExtension, services), services };
}
