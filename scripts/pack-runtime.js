// The loader of a packed production build, appended to chunk-runtime.js by scripts/pack-chunks.js after its two tables:
// __mcpwbPackOf (a packed chunk's name → its pack's) and __mcpwbHashOf (each file the loader may compile → a hash of
// its content). Plain ES5-style code: it is written into the build as it is here (then minified).
//
// The code cache. Compiling the window's start-up code (extension-main.js and chunk-start.js, ~375 KB) took VS Code's
// extension host ~10 ms of every window's start; compiling it from V8's code cache for the same source, ~2 ms
// (measured outside VS Code, Node 20). Node's require keeps no code cache of an extension's files, and VS Code does
// not either, so this loader does: once the extension's entry names a folder (useCodeCache, the extension's own global
// storage, at activation), each file the loader is asked for is compiled with the cache it wrote there for that file's
// content, and a file compiled without one gets it written after activation (writeCodeCache). A cache is named by its
// file's content hash (computed by the build), so a new version never runs an old version's code: V8 itself checks
// only the source's length, its own version and flags (then rejects a cache, and the file is compiled as usual). The
// CLI never names a folder: its files are required as Node requires them.
var __mcpwbFs = require('node:fs');
var __mcpwbPath = require('node:path');
var __mcpwbVm = require('node:vm');
var __mcpwbModule = require('node:module');
/** A packed chunk's name → its module, once it ran. */
var __mcpwbRun = new Map();
/** A file compiled here → its module. */
var __mcpwbFiles = new Map();
/** The folder of the code cache; undefined: files are required. */
var __mcpwbCacheDir;
/** Files compiled without a cache: name → the compiled script, its cache written by writeCodeCache. */
var __mcpwbUncached = new Map();
/** Files compiled from their cache, by name. */
var __mcpwbFromCache = [];
/** Once the extension is activated: how long after a file is compiled its cache is written, and where errors go. */
var __mcpwbWriting;
/** The timer of the next write, while one is pending. */
var __mcpwbWriteTimer;

function __mcpwbUseCodeCache(dir) {
  __mcpwbCacheDir = dir;
}

function __mcpwbCacheFile(name) {
  return __mcpwbPath.join(__mcpwbCacheDir, name + '.' + __mcpwbHashOf[name] + '.v8');
}

/** A file of the build (not packed), once: required, or compiled with its code cache when one is in use. */
function __mcpwbRequire(name) {
  if (__mcpwbCacheDir === undefined || __mcpwbHashOf[name] === undefined) return require('./' + name);
  var known = __mcpwbFiles.get(name);
  if (known !== undefined) return known.exports;
  var file = __mcpwbPath.join(__dirname, name);
  var cachedData;
  try {
    cachedData = __mcpwbFs.readFileSync(__mcpwbCacheFile(name));
  } catch (error) {
    // No cache yet (the first window of this version), or an unreadable one: compiled as usual.
  }
  var script = new __mcpwbVm.Script(__mcpwbModule.wrap(__mcpwbFs.readFileSync(file, 'utf8')), {
    filename: file,
    cachedData: cachedData,
  });
  if (cachedData === undefined || script.cachedDataRejected) {
    __mcpwbUncached.set(name, script);
    __mcpwbScheduleWrite();
  } else __mcpwbFromCache.push(name);
  var module = { exports: {}, filename: file, id: file, loaded: false };
  // Kept before it runs, as require keeps a module before evaluating it.
  __mcpwbFiles.set(name, module);
  try {
    // A require of the file's own: VS Code answers require('vscode') by the requiring file's path.
    script.runInThisContext()(module.exports, __mcpwbModule.createRequire(file), module, file, __dirname);
  } catch (error) {
    __mcpwbFiles.delete(name);
    throw error;
  }
  module.loaded = true;
  return module.exports;
}

/** A chunk: a packed one's function run once (as require runs a file once), any other chunk's file loaded. */
function __mcpwbLoad(name) {
  var pack = __mcpwbPackOf[name];
  if (pack === undefined) return __mcpwbRequire(name);
  var module = __mcpwbRun.get(name);
  if (module !== undefined) return module.exports;
  module = { exports: {} };
  // Set before it runs, as require caches a module before evaluating it: chunks may require each other in a cycle.
  __mcpwbRun.set(name, module);
  try {
    __mcpwbRequire(pack)[name](module, module.exports);
  } catch (error) {
    __mcpwbRun.delete(name);
    throw error;
  }
  return module.exports;
}

/**
 * From now on (the extension is activated), the cache of each file compiled without one is written `delayMs` after it
 * was (after it ran, a lazy chunk too: the client's chunk at a server's first start), one write for the files compiled
 * meanwhile; `report` gets the errors of each write.
 */
function __mcpwbWriteCodeCacheAfter(delayMs, report) {
  __mcpwbWriting = { delayMs: delayMs, report: report };
  __mcpwbScheduleWrite();
}

function __mcpwbScheduleWrite() {
  if (__mcpwbWriting === undefined || __mcpwbWriteTimer !== undefined || __mcpwbUncached.size === 0) return;
  __mcpwbWriteTimer = setTimeout(function () {
    __mcpwbWriteTimer = undefined;
    var errors = __mcpwbWriteCodeCache();
    if (errors.length > 0) __mcpwbWriting.report(errors);
  }, __mcpwbWriting.delayMs);
  // A pending write never keeps a process up (the extension host decides when it ends).
  if (__mcpwbWriteTimer.unref) __mcpwbWriteTimer.unref();
}

/**
 * Writes the code cache of each file compiled without one (after it ran: the cache then holds the functions compiled
 * so far too), each to a file of its own written whole (a temporary file renamed: two windows may write at once), and
 * removes the caches of other versions of those files. Returns the errors met, for the log: a cache not written only
 * costs the next window the compile.
 */
function __mcpwbWriteCodeCache() {
  var errors = [];
  if (__mcpwbCacheDir === undefined || __mcpwbUncached.size === 0) return errors;
  try {
    __mcpwbFs.mkdirSync(__mcpwbCacheDir, { recursive: true });
  } catch (error) {
    return [error];
  }
  __mcpwbUncached.forEach(function (script, name) {
    try {
      var target = __mcpwbCacheFile(name);
      var temporary = target + '.' + process.pid + '.tmp';
      __mcpwbFs.writeFileSync(temporary, script.createCachedData());
      __mcpwbFs.renameSync(temporary, target);
      __mcpwbFs.readdirSync(__mcpwbCacheDir).forEach(function (other) {
        if (
          other.startsWith(name + '.') &&
          other.endsWith('.v8') &&
          __mcpwbPath.join(__mcpwbCacheDir, other) !== target
        )
          __mcpwbFs.rmSync(__mcpwbPath.join(__mcpwbCacheDir, other), { force: true });
      });
    } catch (error) {
      errors.push(error);
    }
  });
  __mcpwbUncached.clear();
  return errors;
}

module.exports.__mcpwbLoad = __mcpwbLoad;
module.exports.__mcpwbRequire = __mcpwbRequire;
module.exports.__mcpwbUseCodeCache = __mcpwbUseCodeCache;
module.exports.__mcpwbWriteCodeCache = __mcpwbWriteCodeCache;
module.exports.__mcpwbWriteCodeCacheAfter = __mcpwbWriteCodeCacheAfter;
module.exports.__mcpwbCodeCacheUsed = function () {
  return __mcpwbFromCache.slice();
};
