// `--sarif-map auto` end to end through the built binary (`node dist/cli.js ci …` with cwd = each fixture): the
// same suite as sarif-auto.test.ts (routes/sarif-run.ts), proving the bundle carries the route inference.
import { runCli } from '../support/cli.js';
import { describeSarifAuto } from './routes/sarif-run.js';

describeSarifAuto('built binary', runCli);
