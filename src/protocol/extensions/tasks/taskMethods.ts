import type { JsonObject } from '../../types';

/** The task methods both generations send (2025-11-25 core utility; 2026-07-28 `io.modelcontextprotocol/tasks`). */
declare module '../../methods' {
  interface ExtensionClientRequests {
    'tasks/get': { params: { taskId: string; [key: string]: unknown }; result: JsonObject };
    /** 2025-11-25 only: blocks until the task ends and answers with the original request's result. */
    'tasks/result': { params: { taskId: string; [key: string]: unknown }; result: JsonObject };
    /** 2025-11-25 only. */
    'tasks/list': { params: { cursor?: string; [key: string]: unknown } | undefined; result: JsonObject };
    'tasks/cancel': { params: { taskId: string; [key: string]: unknown }; result: JsonObject };
    /** 2026-07-28 only: answers the task's inputRequests. */
    'tasks/update': {
      params: { taskId: string; inputResponses: Record<string, JsonObject>; [key: string]: unknown };
      result: JsonObject;
    };
  }
}

export const TASK_METHODS = ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel', 'tasks/update'] as const;

/** The `_meta` key that ties a message to a task. */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';
