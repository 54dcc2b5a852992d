// The SDK's one definition of the service's vocabulary (src/core/vocabulary.ts), held against the description (and
// through it the service's document): a value added or changed there fails here, not in a user's run.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FAIL_ON,
  FAIL_ON,
  FINISHED_PAGE_STATUSES,
  FREE_PLAN_URLS_PER_CHECK,
  MAX_URLS_PER_CHECK,
  pagesDone,
  SERVICE_REQUESTS_PER_MINUTE,
} from '../../src/vocabulary/index.js';
import { zFailOn, zV1CreateCiCheckRequest } from '../../generated/zod.gen.js';
import { spec } from '../support/spec.js';

interface Described {
  enum?: string[];
  maxItems?: number;
  description?: string;
  properties?: Record<string, Described>;
}
const schemas = (spec as unknown as { components: { schemas: Record<string, Described> } }).components.schemas;

describe("the service's vocabulary, one definition each", () => {
  it("failOn: the values and their order are the description's, the default the document's", () => {
    expect([...FAIL_ON]).toEqual(schemas.FailOn!.enum);
    expect([...FAIL_ON]).toEqual(zFailOn.options);
    expect(FAIL_ON).toContain(DEFAULT_FAIL_ON);
  });

  it('a page ends in every status of the description but QUEUED and RUNNING', () => {
    expect([...FINISHED_PAGE_STATUSES, 'QUEUED', 'RUNNING'].sort()).toEqual(
      [...schemas.Page!.properties!.status!.enum!].sort(),
    );
    expect(pagesDone([{ status: 'DONE' }, { status: 'ERROR' }, { status: 'RUNNING' }, { status: 'LATER' }, null])).toBe(
      2,
    );
    expect(pagesDone(undefined)).toBe(0);
  });

  it('URLs per check: the request schema bounds them at 20, the Free plan at 5 (its description)', () => {
    const urls = schemas.V1CreateCiCheckRequest!.properties!.urls!;
    expect(MAX_URLS_PER_CHECK).toBe(urls.maxItems);
    expect(urls.description).toContain(`Free plan accepts up to ${FREE_PLAN_URLS_PER_CHECK}`);
    const one = 'https://shop.example.com/';
    expect(zV1CreateCiCheckRequest.safeParse({ urls: Array(MAX_URLS_PER_CHECK).fill(one) }).success).toBe(true);
    expect(zV1CreateCiCheckRequest.safeParse({ urls: Array(MAX_URLS_PER_CHECK + 1).fill(one) }).success).toBe(false);
  });

  it("the default rate is the description's (its Limits, from the document's)", () => {
    expect((spec as unknown as { info: { description: string } }).info.description).toContain(
      `**Limits.** ${SERVICE_REQUESTS_PER_MINUTE} requests per minute per key by default`,
    );
  });
});
