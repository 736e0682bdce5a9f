// Preloaded (`node --require bench/peakRss.cjs cli.js ...`) into a CLI whose memory the bench measures: as the
// process exits, writes its peak resident set size (VmHWM of /proc/self/status, in KiB) to $BENCH_PEAK_RSS_FILE.
// Read by the process itself at exit, so no peak between two polls is missed, and no child's memory is counted.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS preload, loaded with node --require
const fs = require('node:fs');

const file = process.env.BENCH_PEAK_RSS_FILE;
if (file) {
  delete process.env.BENCH_PEAK_RSS_FILE; // the server the CLI starts must not write over it
  process.on('exit', () => {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    fs.writeFileSync(file, match ? match[1] : 'unknown');
  });
}
