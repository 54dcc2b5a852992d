// The CI recipes of the docs (GitLab CI, Jenkins, Azure Pipelines): which blocks they are, for the test that checks
// them (ci-recipes.test.ts) and for the test that makes sure every block is claimed by one (code-blocks.test.ts).
import type { CodeBlock } from './pages.js';

/** A recipe's CI, by the page and the start of its block. */
export const CI_RECIPES: ReadonlyArray<{
  ci: 'gitlab' | 'gitlab-matrix' | 'jenkins' | 'azure';
  page: string;
  startsWith: string;
}> = [
  { ci: 'gitlab', page: 'docs/cli.md', startsWith: 'accessibility:\n  image:' },
  { ci: 'gitlab-matrix', page: 'docs/cli.md', startsWith: '# .gitlab-ci.yml\na11y-shard:' },
  { ci: 'jenkins', page: 'docs/cli.md', startsWith: "stage('Accessibility')" },
  { ci: 'azure', page: 'docs/cli.md', startsWith: 'steps:\n  - task: NodeTool@0' },
];

/** The recipe a block is, if it is one. */
export const recipeOf = (block: CodeBlock) =>
  CI_RECIPES.find((r) => r.page === block.page && block.text.startsWith(r.startsWith));
