import { createHook } from 'node:async_hooks';

/** Promises created while `run` runs (synchronously): what a request in flight costs, counted by async_hooks. */
export function promisesMadeBy<T>(run: () => T): { value: T; promises: number } {
  let promises = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') promises++;
    },
  });
  hook.enable();
  try {
    return { value: run(), promises };
  } finally {
    hook.disable();
  }
}
