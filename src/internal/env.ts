import { ConfigurationError } from '../errors.js';

// Reads an environment variable where one exists (Node, Deno, Bun); browsers and edge runtimes have none.
// Deno without --allow-env throws its own error (`NotCapable`) on the read, which would reach callers who only
// ever see the SDK's errors: it becomes a ConfigurationError, which keeps Deno's hint (`${error}`).
export function readEnv(name: string): string | undefined {
  try {
    // Blank counts as unset.
    return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name]?.trim() || undefined;
  } catch (error) {
    throw new ConfigurationError(`Cannot read ${name} (${error}): pass the option instead.`, { cause: error });
  }
}
