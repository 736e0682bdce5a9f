/**
 * Runs the built CLI (dist/cli.js) as a person would, with stdin closed, and resolves with its exit code and output;
 * rejects when it did not exit by itself (killed at the timeout, or by a signal), naming stderr.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from './paths';

export const CLI_PATH = path.join(repoRoot, 'dist', 'cli.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Killed (SIGKILL) after this long; the default is 60 s. */
  timeoutMs?: number;
  maxBuffer?: number;
}

export function runCli(args: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI_PATH, ...args],
      {
        cwd: options.cwd ?? repoRoot,
        env: options.env ?? process.env,
        timeout: options.timeoutMs ?? 60_000,
        killSignal: 'SIGKILL',
        maxBuffer: options.maxBuffer ?? 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          reject(new Error(`the CLI did not exit normally (${error.message}); stderr:\n${stderr}`));
          return;
        }
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    ).stdin?.end();
  });
}
