import { existsSync } from 'node:fs';
import * as path from 'node:path';

export const repoRoot = path.resolve(__dirname, '..', '..');
export const cliPath = path.join(repoRoot, 'dist', 'cli.js');

/**
 * Tests run against the bundle that `npm test` builds once up front; building inside tests would race with
 * other test files executing it concurrently.
 */
export function requireBuiltCli(): string {
  if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: run "npm run build" before the tests (npm test does)`);
  return cliPath;
}
