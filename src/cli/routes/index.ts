// The routes wing's entry: what the report and the ci options use of it.
export { type Inference, inferRoutes } from './infer.js';
export { matchRoute, pathSegments } from './match.js';
export type { Framework, Route, RouteTable, SourceLocation } from './types.js';
