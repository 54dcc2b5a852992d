// A validator of SARIF 2.1.0 logs against the schema shipped as test data (test/fixtures).
import { readFileSync } from 'node:fs';
import AjvModule from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';

// Both packages are CommonJS with `exports.default`; under NodeNext the default import is the module object.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

const schema = JSON.parse(readFileSync(new URL('../fixtures/sarif-2.1.0-rtm.5.schema.json', import.meta.url), 'utf8'));
// `unicodeRegExp: false`: the schema's `language` pattern (`…{2}]?$`) is valid only without the `u` flag.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);

/** Validates a parsed SARIF log against the SARIF 2.1.0 schema; `validateSarif.errors` holds the errors. */
export const validateSarif = ajv.compile(schema);
