/**
 * Bundles the bench's process entry points with esbuild, with the options of esbuild.js: this project's client as
 * it ships (tsx's on-the-fly transform adds a `__name` call per closure, which would bill this client for the
 * bench's own loader), and the SDK clients through the same bundler so neither side loads differently. The client is
 * one bundle here; the VSIX cuts the core into chunks (esbuild.js), but a call's path is in one chunk: 10,000
 * concurrent calls took the same client CPU either way (127–139 ms from the chunks against 127–151 ms from one minified bundle, warm, three runs each).
 */
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import type { OursModule } from './clients';

export interface Bundles {
  readonly worker: string;
  readonly sdkCli: string;
  dispose(): void;
}

function bundle(entry: string, outfile: string): void {
  buildSync({
    entryPoints: [path.join(__dirname, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
}

/** The worker (bench/worker.ts) and the SDK-based CLI (bench/sdkCli.ts), in a temporary folder until dispose(). */
export function buildBundles(): Bundles {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bench-'));
  const worker = path.join(dir, 'worker.js');
  const sdkCli = path.join(dir, 'sdk-cli.js');
  bundle('worker.ts', worker);
  bundle('sdkCli.ts', sdkCli);
  return { worker, sdkCli, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** This project's client, bundled and loaded in this process (for bench/profileHttp.ts). */
export function loadBundledOurs(): OursModule {
  return loadBundledOursFile().ours;
}

/**
 * The same, with the bundle's path, kept until this process exits: a profile's frames name lines of it, which
 * bench/profileBuckets.ts maps back to source files.
 */
export function loadBundledOursFile(): { ours: OursModule; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bench-'));
  const file = path.join(dir, 'ours.js');
  bundle('oursEntry.ts', file);
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return { ours: createRequire(__filename)(file) as OursModule, file };
}
