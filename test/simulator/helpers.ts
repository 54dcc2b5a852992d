// Shared bits of the simulator tests.
import { expect } from 'vitest';
import { ApiError } from '../../src/index.js';

/** RFC 4122 version-4 UUID. */
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** ISO 8601 UTC date-time ending in Z. */
export const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** Fast polling for short simulator durations. */
export const FAST = { intervalMs: 20, maxIntervalMs: 40, timeoutMs: 10_000 } as const;

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** Asserts an ApiError of `status` with problem `code` (undefined: a problem without code) and a full problem body. */
export async function expectProblem(
  promise: Promise<unknown>,
  status: number,
  code: string | undefined,
): Promise<ApiError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(ApiError);
  const e = error as ApiError;
  expect({ status: e.status, code: e.code }).toEqual({ status, code });
  expect(e.headers.get('content-type')).toBe('application/problem+json');
  expect(e.problem).toMatchObject({
    status,
    type: expect.any(String),
    title: expect.any(String),
    detail: expect.any(String),
  });
  expect(e.traceId).toMatch(UUID_V4);
  expect(e.timestamp).toMatch(ISO_Z);
  expect(e.instance).toBe(new URL(e.url).pathname);
  return e;
}

/** Resolves after `ms`. */
export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
