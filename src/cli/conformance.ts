import type { ParsedArgs } from './args';

/** Placeholder until the conformance driver lands; reports clearly instead of pretending to pass. */
export async function runConformance(_args: ParsedArgs): Promise<number> {
  process.stderr.write('conformance mode is not implemented yet\n');
  return 1;
}
