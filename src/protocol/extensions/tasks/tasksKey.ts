import type { ExtensionKey } from '../protocolExtension';
import type { TasksApi } from './tasksExtension';

export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/**
 * The tasks extension's API by its id: `client.extension(TASKS_API)` asks a client for it without loading the
 * extension's code (the editor's views and the review panel ask at start-up; the code loads with a server's start).
 */
export const TASKS_API: ExtensionKey<TasksApi> = { id: TASKS_EXTENSION_ID };
