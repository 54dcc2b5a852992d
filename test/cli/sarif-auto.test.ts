// `--sarif-map auto` end to end in process (the CLI's `run`, cwd set to each fixture): see routes/sarif-run.ts.
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { describeSarifAuto } from './routes/sarif-run.js';

describeSarifAuto('CLI in process', runCliLikeBinary);
