// The error classes' table: each status gives its class, each class its name and its cross-copy kind, and every
// exported error class has a row (a class left out would carry its parent's name and be recognised as it).
import { describe, expect, it } from 'vitest';
import * as sdk from '../../src/index.js';
import {
  A11yError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  errorFromResponse,
} from '../../src/index.js';

const KIND = Symbol.for('@svc/a11y-sdk/error-kind');
const request = { method: 'GET', url: 'https://api.example.com/api/v1/sites' };

// Written out here rather than read from src: the expectation must not come from the table it checks.
const statuses: [status: number, Class: typeof ApiError, name: string][] = [
  [400, BadRequestError, 'BadRequestError'],
  [401, AuthenticationError, 'AuthenticationError'],
  [403, PermissionDeniedError, 'PermissionDeniedError'],
  [404, NotFoundError, 'NotFoundError'],
  [409, ConflictError, 'ConflictError'],
  [422, UnprocessableEntityError, 'UnprocessableEntityError'],
  [429, RateLimitError, 'RateLimitError'],
  [500, InternalServerError, 'InternalServerError'],
  [502, InternalServerError, 'InternalServerError'],
  [503, InternalServerError, 'InternalServerError'],
  [599, InternalServerError, 'InternalServerError'],
  [402, ApiError, 'ApiError'],
  [405, ApiError, 'ApiError'],
  [410, ApiError, 'ApiError'],
  [418, ApiError, 'ApiError'],
  [499, ApiError, 'ApiError'],
];

// The former names kept as deprecated aliases: the same classes under a second export, named by their new name.
const ALIASES: Record<string, string> = {
  APIConnectionError: 'ApiConnectionError',
  APITimeoutError: 'ApiTimeoutError',
};
const errorClasses = Object.entries(sdk).filter(
  (entry): entry is [string, typeof A11yError] =>
    !(entry[0] in ALIASES) &&
    typeof entry[1] === 'function' &&
    (entry[1] === A11yError || entry[1].prototype instanceof A11yError),
);

describe('errorFromResponse: status → class, name and kind', () => {
  it.each(statuses)('%i gives exactly %O, named %s', async (status, Class, name) => {
    const err = await errorFromResponse(new Response(null, { status }), request);
    // Exactly this class, not a subclass or parent of it.
    expect(Object.getPrototypeOf(err)).toBe(Class.prototype);
    expect(err.name).toBe(name);
    expect(err.status).toBe(status);
    // The name is an own, enumerable property, as before the table: JSON logs of an error keep it.
    expect(Object.getOwnPropertyDescriptor(err, 'name')).toMatchObject({ value: name, enumerable: true });
    expect(JSON.parse(JSON.stringify(err))).toMatchObject({ name, status });
    expect(String(err)).toBe(`${name}: ${status} [GET ${request.url}]`);
    expect(err.stack?.split('\n')[0]).toBe(`${name}: ${status} [GET ${request.url}]`);
    expect(Object.getOwnPropertyDescriptor(Class, KIND)?.value).toBe(name);
  });

  it('the status classes are only recognised as themselves and their parents', async () => {
    const classes = [...new Set(statuses.map(([, Class]) => Class))];
    for (const [status, Class] of statuses) {
      const err = await errorFromResponse(new Response(null, { status }), request);
      for (const Other of classes) {
        expect(err instanceof Other, `${status} instanceof ${Other.name}`).toBe(Other === Class || Other === ApiError);
      }
      expect(err).toBeInstanceOf(A11yError);
      expect(err).toBeInstanceOf(Error);
    }
  });
});

describe('the deprecated aliases', () => {
  it.each(Object.entries(ALIASES))('%s is %s itself (instanceof holds both ways)', (alias, name) => {
    const exports = sdk as unknown as Record<string, typeof A11yError>;
    expect(exports[alias]).toBe(exports[name]);
    const err = Reflect.construct(exports[alias]!, ['x', 'GET', 'https://a.example/']);
    expect(err).toBeInstanceOf(exports[name]!);
    expect(err.name).toBe(name);
  });
});

describe('every exported error class has its row', () => {
  it('finds the 19 classes of the public entry', () => {
    expect(errorClasses.map(([name]) => name).sort()).toEqual(
      [
        'A11yError',
        'ApiConnectionError',
        'ApiTimeoutError',
        'ApiError',
        'AuthenticationError',
        'BadRequestError',
        'ConfigurationError',
        'ConflictError',
        'HookError',
        'InternalServerError',
        'NotFoundError',
        'PermissionDeniedError',
        'PollTimeoutError',
        'RateLimitError',
        'RedirectError',
        'RequestValidationError',
        'ResponseTooLargeError',
        'ResponseValidationError',
        'UnprocessableEntityError',
      ].sort(),
    );
  });

  it.each(errorClasses)(
    '%s carries its exported name as its own kind, and instances carry it as name',
    (name, Class) => {
      expect(Object.getOwnPropertyDescriptor(Class, KIND)).toMatchObject({ value: name, writable: false });
      // The name comes from the class, whatever the constructor's arguments.
      const api = Class.prototype === ApiError.prototype || Class.prototype instanceof ApiError;
      const err = Reflect.construct(Class, api ? [400, undefined, new Headers(), request] : ['x', 'y', 'z', 'w']);
      expect(err).toBeInstanceOf(Class);
      expect(err.name).toBe(name);
    },
  );

  it("a user's subclass keeps the name of the class it extends and has no kind of its own", () => {
    class ScanMissing extends NotFoundError {}
    const err = new ScanMissing(404, undefined, new Headers(), request);
    expect(err.name).toBe('NotFoundError');
    expect(Object.hasOwn(ScanMissing, KIND)).toBe(false);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(new NotFoundError(404, undefined, new Headers(), request)).not.toBeInstanceOf(ScanMissing);
  });
});
