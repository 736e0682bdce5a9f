#!/usr/bin/env node
// The CLI's entry (dist/cli.js): runs main.ts's main. A file of its own because the sources are ES modules, which
// cannot ask whether they are the program (`require.main === module`), and tests import main.ts's runners without
// running it.
import { endedProcessesReaped } from '../protocol/node/processTree';
import { main } from './main';

/** Resolves once everything written to `stream` so far has been handed to the OS. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/**
 * How long the CLI waits, at most, before exiting for the processes of a server's tree it ended to be reaped. A
 * grandchild whose parent died first is reaped by PID 1, which in a container may take a second or two; an init
 * that never reaps costs this much once. Without the wait, a pid of the tree could still name a process (a zombie)
 * after the CLI had exited (issue 39).
 */
const REAP_WAIT_MS = 3_000;

main(process.argv.slice(2)).then(
  async (code) => {
    // The output is written and the server's tree is ended (or was gone already): exit once what it ended has left
    // the process table, rather than wait for whatever a transport leaves behind (an idle keep-alive socket, a
    // reconnect timer) to let the loop drain.
    await Promise.all([flushed(process.stdout), flushed(process.stderr), endedProcessesReaped(REAP_WAIT_MS)]);
    process.exit(code);
  },
  async (error) => {
    process.stderr.write(`internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
    await endedProcessesReaped(REAP_WAIT_MS);
  },
);
