// Preloaded into a benchmarked CLI process (`node --import`): on exit, its peak resident set size on stderr, read by
// the benchmark (whole-site.mjs). Written synchronously: stderr is a pipe, and the process is ending.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\nBENCH_MAX_RSS_KB=${process.resourceUsage().maxRSS}\n`);
});
