// The routes wing's entry: what the report and the ci options use of it.
export { basePathSegments } from './base-path.js';
export { type InferOptions, type Inference, inferRoutes } from './infer.js';
export { matchRoute, pathSegments } from './match.js';
export { MAX_WALK_ENTRIES } from './walk.js';
export type { Framework, Route, RouteSegment, RouteTable, SourceLocation } from './types.js';
