/**
 * What a person downloads, part of `npm run bench:ui`; alone: node --import tsx bench/vsixSize.ts [<vsix>].
 *
 * The VSIX against issue 42's cap (400 KB), and what each part of it costs compressed, so the floor is visible: the
 * bytes each ZIP entry takes (its compressed size, read from the ZIP's central directory), summed by part. A code file
 * (dist/*.js) holds our modules and bundled packages together; its compressed bytes are split between them in
 * proportion to the minified bytes each contributes (esbuild's metafile of the production build, as esbuild.js makes
 * it, written nowhere). What the entries do not account for is the ZIP's own structure: a local and a central header
 * per file, each with its name.
 */
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import type * as esbuild from 'esbuild';

/** Issue 42: the VSIX may not grow past 400 KB. */
export const VSIX_CAP_BYTES = 400_000;

export const PARTS = [
  'our code',
  'gateway SDK + zod',
  'other libraries',
  'l10n',
  'docs',
  'media',
  'manifest + schemas',
  'ZIP structure',
] as const;
export type Part = (typeof PARTS)[number];

/** Each code file's minified bytes by where they come from (the code parts of PARTS), by file name. */
export type CodeOrigins = ReadonlyMap<string, ReadonlyMap<Part, number>>;

export interface ZipEntry {
  name: string;
  compressedBytes: number;
  /** Where its local header starts, and how it is compressed (0 stored, 8 deflated). */
  localHeaderAt: number;
  method: number;
}

/** The entries of a ZIP, from its central directory (the end record is found from the end; no ZIP64). */
export function zipEntries(zip: Buffer): ZipEntry[] {
  const endAt = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0) throw new Error('not a ZIP file: no end of central directory record');
  const count = zip.readUInt16LE(endAt + 10);
  const entries: ZipEntry[] = [];
  let at = zip.readUInt32LE(endAt + 16);
  for (let index = 0; index < count; index++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`no central directory header at ${at}`);
    const nameLength = zip.readUInt16LE(at + 28);
    entries.push({
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      compressedBytes: zip.readUInt32LE(at + 20),
      localHeaderAt: zip.readUInt32LE(at + 42),
      method: zip.readUInt16LE(at + 10),
    });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** The text of a ZIP entry. */
export function zipText(zip: Buffer, entry: ZipEntry): string {
  const dataAt =
    entry.localHeaderAt + 30 + zip.readUInt16LE(entry.localHeaderAt + 26) + zip.readUInt16LE(entry.localHeaderAt + 28);
  const data = zip.subarray(dataAt, dataAt + entry.compressedBytes);
  return (entry.method === 8 ? zlib.inflateRawSync(data) : data).toString('utf8');
}

/**
 * The production build's packs (scripts/pack-chunks.js: small chunks written into a few files): each pack's origins are
 * those of the chunks in it, read from the table of the runtime the VSIX carries.
 */
function withPacks(zip: Buffer, entries: readonly ZipEntry[], origins: CodeOrigins): CodeOrigins {
  const runtime = entries.find((entry) => entry.name === 'extension/dist/chunk-runtime.js');
  const table = runtime && /__mcpwbPackOf=(\{[^}]*\})/.exec(zipText(zip, runtime));
  if (!table) return origins;
  const merged = new Map(origins);
  for (const [chunk, pack] of Object.entries(JSON.parse(table[1]) as Record<string, string>)) {
    const byPart = new Map(merged.get(pack) ?? []);
    for (const [part, value] of origins.get(chunk) ?? []) byPart.set(part, (byPart.get(part) ?? 0) + value);
    merged.set(pack, byPart);
  }
  return merged;
}

/** The part of a module of the build, by its path in esbuild's metafile. */
export function codePart(input: string): Part {
  if (/node_modules\/(@modelcontextprotocol\/(server|core)|zod)\//.test(input)) return 'gateway SDK + zod';
  if (input.includes('node_modules/')) return 'other libraries';
  return 'our code';
}

/** The part of a VSIX entry other than a code file. */
function entryPart(name: string): Part {
  const file = name.replace(/^extension\//, '');
  if (/^(l10n\/|package\.nls\.)/.test(file)) return 'l10n';
  if (/^(readme|changelog|license)(\.|$)/i.test(file)) return 'docs';
  if (/^(dist\/)?media\//.test(file)) return 'media';
  return 'manifest + schemas';
}

export interface VsixShares {
  totalBytes: number;
  bytes: Map<Part, number>;
  /** Code files the metafile does not know (a VSIX of another build): counted as our code. */
  unmatched: string[];
}

/** The extension's code behind its entry in a packed build (scripts/pack-chunks.js). */
const MAIN = 'extension-main.js';

/** The VSIX's bytes by part. */
export function vsixShares(zip: Buffer, buildOrigins: CodeOrigins): VsixShares {
  const origins = withPacks(zip, zipEntries(zip), buildOrigins);
  const bytes = new Map<Part, number>(PARTS.map((part) => [part, 0]));
  const add = (part: Part, value: number) => bytes.set(part, (bytes.get(part) ?? 0) + value);
  const unmatched: string[] = [];
  const packed = zipEntries(zip).some((entry) => entry.name === `extension/dist/${MAIN}`);
  let entriesBytes = 0;
  for (const entry of zipEntries(zip)) {
    entriesBytes += entry.compressedBytes;
    if (!/^extension\/dist\/[^/]+\.js$/.test(entry.name)) {
      add(entryPart(entry.name), entry.compressedBytes);
      continue;
    }
    const name = path.basename(entry.name);
    // A packed build (scripts/pack-chunks.js): esbuild's extension.js is extension-main.js, behind an entry of its own.
    const entryOfPackedBuild = name === 'extension.js' && packed;
    const origin = entryOfPackedBuild ? undefined : origins.get(name === MAIN ? 'extension.js' : name);
    // chunk-runtime.js: the conversion's helpers, written by scripts/build-commonjs.js after esbuild (no metafile).
    if (!origin && name !== 'chunk-runtime.js' && !entryOfPackedBuild) unmatched.push(entry.name);
    const minified = origin ? [...origin.values()].reduce((sum, value) => sum + value, 0) : 0;
    // A file of imports and exports only (a facade of a lazily loaded module, esbuild's runtime helpers) is the
    // build's own glue: our code.
    if (!origin || minified === 0) add('our code', entry.compressedBytes);
    else for (const [part, value] of origin) add(part, (entry.compressedBytes * value) / minified);
  }
  add('ZIP structure', zip.length - entriesBytes);
  return { totalBytes: zip.length, bytes, unmatched };
}

/** Where each code file's minified bytes come from, from the metafile of the production build. */
export async function productionCodeOrigins(repoRoot: string): Promise<CodeOrigins> {
  const load = createRequire(path.join(repoRoot, 'package.json'));
  const { codeTarget, sdkShims } = load(path.join(repoRoot, 'esbuild.js')) as {
    codeTarget: esbuild.BuildOptions;
    sdkShims: esbuild.Plugin;
  };
  const build = (load('esbuild') as typeof esbuild).build;
  // `--production`: minified, no source maps; the plugins that write into dist/ are left out, sdkShims is what the
  // bundle resolves.
  const result = await build({ ...codeTarget, write: false, plugins: [sdkShims], minify: true, sourcemap: false });
  const origins = new Map<string, Map<Part, number>>();
  for (const [output, info] of Object.entries(result.metafile?.outputs ?? {})) {
    const byPart = new Map<Part, number>();
    for (const [input, { bytesInOutput }] of Object.entries(info.inputs))
      byPart.set(codePart(input), (byPart.get(codePart(input)) ?? 0) + bytesInOutput);
    origins.set(path.basename(output), byPart);
  }
  return origins;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

/** The VSIX row with its verdict, and the table of its parts. */
export function vsixReport(name: string, shares: VsixShares): string {
  const { totalBytes, bytes } = shares;
  const over = totalBytes - VSIX_CAP_BYTES;
  const verdict = over < 0 ? 'MET' : `NOT MET, ${kb(over)} over`;
  const lines = [
    `VSIX: ${kb(totalBytes)} (${name}, ${totalBytes.toLocaleString('en-US')} bytes; issue 42's cap ${kb(VSIX_CAP_BYTES)}: ${verdict})`,
    '',
    '| part of the VSIX (compressed) | bytes | share |',
    '| --- | ---: | ---: |',
    ...PARTS.map((part) => {
      const value = Math.round(bytes.get(part) ?? 0);
      return `| ${part} | ${value.toLocaleString('en-US')} | ${((100 * value) / totalBytes).toFixed(1)}% |`;
    }),
  ];
  // The floor: what serving the gateway without the SDK (issue 42's question) would leave.
  const withoutSdk = totalBytes - (bytes.get('gateway SDK + zod') ?? 0);
  lines.push(
    '',
    `Without the gateway SDK + zod: about ${kb(withoutSdk)} (${withoutSdk < VSIX_CAP_BYTES ? 'under' : 'still over'} the cap).`,
  );
  if (shares.unmatched.length > 0)
    lines.push(
      `(${shares.unmatched.length} code files are not in this tree's production build, counted as our code: was the VSIX built from it?)`,
    );
  return lines.join('\n');
}

/** The report for the VSIX at `vsixPath`, its code attributed through this tree's production build. */
export async function measureVsix(vsixPath: string, repoRoot: string): Promise<string> {
  const shares = vsixShares(fs.readFileSync(vsixPath), await productionCodeOrigins(repoRoot));
  return vsixReport(path.basename(vsixPath), shares);
}

if (require.main === module) {
  const repoRoot = path.join(__dirname, '..');
  measureVsix(process.argv[2] ?? path.join(repoRoot, 'dist', 'mcp-workbench-0.1.0.vsix'), repoRoot).then(
    (report) => console.log(report),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
