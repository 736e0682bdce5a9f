// The last step of esbuild.js: each file of the split build (ES modules, in memory) written as CommonJS.
//
// Why CommonJS: VS Code loads an ES-module extension through a module loader that costs 60-90 ms before the
// extension's first line runs, even for an empty extension; a CommonJS one loads in 1 ms (bench/uiActivation.ts,
// code-server 4.100.3). esbuild splits code only in ES-module output, so the split files are converted one by one:
// their imports of each other become `require()`s, their `import()`s `require()`s behind a promise (still loaded only
// when reached), their exports getters (live, as ES module bindings are, so files may import each other in a cycle).
//
// Why a shared runtime: the conversion starts every file with the same few helpers (__defProp, __export, __toESM, …,
// ~400 bytes), and the build has ~160 files: written once in chunk-runtime.js and required by each, they cost the
// VSIX ~35 KB less. A helper esbuild writes differently in two files fails the build rather than be shared wrongly.
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');
const { packChunks } = require('./pack-chunks.js');

const RUNTIME = 'chunk-runtime.js';
/** The first line of one of esbuild's helpers (`var __defProp = Object.defineProperty;`, `var __export = (…`). */
const HELPER_START = /^var (__\w+) = /;
/** A helper's following lines: indented, or closing its body. */
const HELPER_CONTINUES = /^(\s|\}|\))/;

/**
 * Takes the helpers off the top of `code` and requires them from the runtime instead, on the first helper line; the
 * other lines of the helpers stay as empty lines, so that a source map of `code` still maps every later line.
 */
function shareHelpers(code, helpers) {
  const lines = code.split('\n');
  let at = lines[0].startsWith('#!') ? 1 : 0;
  const first = at;
  const names = [];
  while (at < lines.length) {
    const start = HELPER_START.exec(lines[at]);
    if (!start) break;
    let end = at + 1;
    while (end < lines.length && HELPER_CONTINUES.test(lines[end])) end++;
    // Locals may be renamed (`key2`) where the file has a top-level name of its own: compared minified.
    const text = esbuild.transformSync(lines.slice(at, end).join('\n'), { loader: 'js', minify: true }).code;
    const known = helpers.get(start[1]);
    if (known !== undefined && known !== text) throw new Error(`esbuild wrote the helper ${start[1]} in two ways`);
    helpers.set(start[1], text);
    names.push(start[1]);
    at = end;
  }
  if (names.length === 0) return code;
  // The vscode API as it is: the sources only `import * as vscode`, and __toESM would copy its ~200 properties into a
  // new object in every file that imports it, as the window opens.
  for (let line = at; line < lines.length; line++)
    lines[line] = lines[line].replaceAll('__toESM(require("vscode"))', 'require("vscode")');
  // Only what the file itself calls: the others are there for the helpers, which find them in the runtime.
  const rest = lines.slice(at).join('\n');
  const used = names.filter((name) => new RegExp(`\\b${name}\\b`).test(rest));
  const shared = used.length > 0 ? `var { ${used.join(', ')} } = require("./${RUNTIME}");` : '';
  return [...lines.slice(0, first), shared, ...lines.slice(first + 1, at).map(() => ''), ...lines.slice(at)].join('\n');
}

/**
 * Converts and writes `outputFiles` (esbuild's, with inline source maps unless `production`) into `outdir`, then removes
 * what an earlier build made and this one did not (chunk names carry a hash of their content, so every change leaves
 * old chunks behind, which the VSIX would pack).
 */
async function writeCommonJs(outputFiles, outdir, production) {
  const helpers = new Map();
  const converted = await Promise.all(
    outputFiles.map(async (file) => {
      const name = path.basename(file.path);
      const result = await esbuild.transform(file.text, {
        loader: 'js',
        format: 'cjs',
        // Not 'node': it adds `0 && (module.exports = {…})` to each file for ES modules importing it; none does.
        platform: 'neutral',
        target: 'node20',
        supported: { 'dynamic-import': false },
        sourcemap: production ? false : 'external',
        sourcefile: name,
      });
      return { file, name, code: shareHelpers(result.code, helpers), map: result.map };
    }),
  );
  const runtime = `${[...helpers.values()].join('\n')}\nmodule.exports = { ${[...helpers.keys()].join(', ')} };\n`;
  converted.push({ file: { path: path.join(outdir, RUNTIME) }, name: RUNTIME, code: runtime, map: '' });
  fs.mkdirSync(outdir, { recursive: true });
  const made = new Set();
  if (production) {
    const minified = new Map(
      await Promise.all(
        converted.map(async ({ name, code }) => {
          const result = await esbuild.transform(code, {
            loader: 'js',
            format: 'cjs',
            platform: 'neutral',
            minify: true,
          });
          return [name, result.code];
        }),
      ),
    );
    for (const [name, code] of packChunks(minified, { extension: 'extension.js', cli: 'cli.js' })) {
      made.add(name);
      fs.writeFileSync(path.join(outdir, name), code);
    }
  }
  await Promise.all(
    converted.map(async ({ file, name, code, map }) => {
      if (production) return;
      made.add(name);
      if (map) {
        made.add(`${name}.map`);
        fs.writeFileSync(`${file.path}.map`, map);
        fs.writeFileSync(file.path, `${code}//# sourceMappingURL=${name}.map\n`);
      } else fs.writeFileSync(file.path, code);
    }),
  );
  for (const name of fs.readdirSync(outdir))
    if (/\.(m?js)(\.map)?$/.test(name) && !made.has(name)) fs.rmSync(path.join(outdir, name));
}

module.exports = { writeCommonJs };
