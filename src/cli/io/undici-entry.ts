// The part of undici the CLI's proxy support uses, built on its own as dist/cli-undici.cjs (CommonJS, undici
// bundled in): undici is a CommonJS package that requires Node's built-ins at run time, which an ESM chunk shared
// with the portable library entries cannot do. Loaded only by proxy.ts, only when a proxy is set. The GitHub Action
// bundles this file into action/index.cjs instead (src/action/pr-comment.ts imports it).
export { EnvHttpProxyAgent, fetch, Pool } from 'undici';
