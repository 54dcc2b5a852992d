// `--sarif-map auto` end to end through the built binary (`node dist/cli.js ci …` with cwd = a fixture): a sample of
// sarif-auto.test.ts's suite (routes/sarif-run.ts) — one framework's project, the config file's "auto", an "auto"
// with no project — proving the bundle carries the route inference and reads the projects from its working
// directory. Every framework and report runs in process there (the same code: 11 binary runs cost ~4 CPU-s).
import { runCli } from '../support/cli.js';
import { describeSarifAuto } from './routes/sarif-run.js';

describeSarifAuto('built binary', runCli, { sample: true });
