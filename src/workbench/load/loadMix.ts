/** The call mix of a load run: from `--tool/--args` pairs, or from the tool calls of a recorded test. */
import type { Recording } from '../recordings/format';
import type { LoadCall } from './loadRun';

/**
 * The tool calls of a recording, in its order. Only `tools/call` steps are load: a listing or a read in a recording
 * is how the session looked around, not the traffic a server is sized for.
 */
export function loadCallsFromRecording(recording: Recording): LoadCall[] {
  const calls: LoadCall[] = [];
  for (const step of recording.steps) {
    if (step.request.method !== 'tools/call') continue;
    const { name, arguments: args } = step.request.params as { name?: unknown; arguments?: unknown };
    if (typeof name !== 'string') continue;
    calls.push({
      tool: name,
      args: typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {},
    });
  }
  return calls;
}
