// Reads an environment variable where one exists (Node, Deno, Bun); browsers and edge runtimes have none.
export function readEnv(name: string): string | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
