// GitHub's own parser of workflow files and action.yml (npm `@actions/workflow-parser`, from actions/languageservices:
// what the Actions extension for VS Code runs), used offline: the file is parsed against GitHub's schema
// (workflow-v1.0 / action-v1.0), then converted to the model the service builds (jobs, needs, steps, matrix,
// expressions), and every error of either pass is returned.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

type Parser = typeof import('@actions/workflow-parser') & typeof import('@actions/workflow-parser/actions/index');

let loaded: Promise<Parser> | undefined;

// The package imports its JSON schemas without `with { type: 'json' }`, which bundlers accept and Node's ESM loader
// refuses; so it is bundled once (esbuild, in memory) and the bundle imported.
function parser(): Promise<Parser> {
  loaded ??= (async () => {
    const result = await build({
      stdin: {
        contents:
          "export * from '@actions/workflow-parser';\nexport * from '@actions/workflow-parser/actions/index';\n",
        resolveDir: fileURLToPath(new URL('../../', import.meta.url)),
        loader: 'js',
      },
      bundle: true,
      format: 'esm',
      platform: 'node',
      write: false,
      logLevel: 'silent',
    });
    const file = join(mkdtempSync(join(tmpdir(), 'svc-a11y-workflow-parser-')), 'parser.mjs');
    writeFileSync(file, result.outputFiles[0]!.text);
    return (await import(pathToFileURL(file).href)) as Parser;
  })();
  return loaded;
}

/** Errors of a workflow file (empty when GitHub would accept it). */
export async function workflowErrors(name: string, content: string): Promise<string[]> {
  const { parseWorkflow, convertWorkflowTemplate, NoOperationTraceWriter } = await parser();
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  if (parsed.value === undefined) return parsed.context.errors.getErrors().map((e) => e.message);
  const template = await convertWorkflowTemplate(parsed.context, parsed.value);
  return [
    ...new Set([
      ...parsed.context.errors.getErrors().map((e) => e.message),
      ...(template.errors ?? []).map((e) => e.Message),
    ]),
  ];
}

/** Errors of an action.yml (empty when GitHub would accept it). */
export async function actionErrors(name: string, content: string): Promise<string[]> {
  const { parseAction, convertActionTemplate, NoOperationTraceWriter } = await parser();
  const parsed = parseAction({ name, content }, new NoOperationTraceWriter());
  if (parsed.value !== undefined) convertActionTemplate(parsed.context, parsed.value);
  return [...new Set(parsed.context.errors.getErrors().map((e) => e.message))];
}
