// Run a CI check from your own script: create, wait, read findings, exit with the verdict.
//   SVC_API_KEY=svc_… SVC_BASE_URL=https://… npx tsx examples/ci-check.ts https://shop.example.com/
// (any TypeScript runner, or compile it; with no account, `npm start` shows the same flow against the simulator).
import { A11yClient, failureOf, isApiError } from '@svc/a11y-sdk';

const urls = process.argv.slice(2);
const client = new A11yClient();

try {
  const check = await client.ciChecks.createAndWait(
    { urls, failOn: 'NEW_CRITICAL', context: { branch: process.env.GITHUB_REF_NAME } },
    { timeoutMs: 10 * 60_000, onProgress: (c) => console.error(c.status) },
  );
  if (check.status === 'FAILED') {
    console.error(`The check could not run: ${failureOf(check)?.message ?? 'no reason given'}`);
    process.exitCode = 4;
  } else {
    const findings = await client.ciChecks.listViolations(check.id);
    for (const f of findings.filter((v) => v.isNew))
      console.log(`${f.impact} ${f.ruleId} ${f.url} ${f.target} ${f.helpUrl}`);
    console.log(`verdict ${check.verdict}: ${check.appUrl ?? ''}`);
    process.exitCode = check.verdict === 'FAIL' ? 1 : 0;
  }
} catch (err) {
  if (isApiError(err, 'DOMAIN_NOT_VERIFIED')) {
    console.error('Verify the site in the service first.');
    process.exitCode = 3;
  } else throw err;
}
