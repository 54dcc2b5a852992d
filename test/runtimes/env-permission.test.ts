// A runtime that refuses to read the environment (Deno without --allow-env throws `NotCapable` from
// `process.env.X`): the client's env fallbacks turn that into a ConfigurationError, as for any other missing
// setting. test/runtimes/runtimes.test.ts shows it in real Deno; this pins it on the host.
import { afterEach, describe, expect, it } from 'vitest';
import { A11yClient, ConfigurationError } from '../../src/index.js';

class NotCapable extends Error {
  override name = 'NotCapable';
}

const original = Object.getOwnPropertyDescriptor(process, 'env')!;
/** Makes every read of process.env.X throw, as Deno does without env permission. */
function refuseEnvReads() {
  const refused = new Proxy(
    {},
    {
      get: (_target, key) => {
        throw new NotCapable(`Requires env access to "${String(key)}", run again with the --allow-env flag`);
      },
    },
  );
  Object.defineProperty(process, 'env', { configurable: true, enumerable: true, get: () => refused });
}
afterEach(() => {
  Object.defineProperty(process, 'env', original);
});

describe('env fallbacks where reading the environment is refused', () => {
  it('a missing base URL: ConfigurationError naming the variable, keeping the runtime hint and the cause', () => {
    refuseEnvReads();
    let error: unknown;
    try {
      new A11yClient({ apiKey: 'svc_test_key_123456' });
    } catch (caught) {
      error = caught;
    }
    Object.defineProperty(process, 'env', original);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toBe(
      'Cannot read SVC_BASE_URL (NotCapable: Requires env access to "SVC_BASE_URL", run again with the --allow-env flag): pass the option instead.',
    );
    expect((error as Error).cause).toBeInstanceOf(NotCapable);
  });

  it('a missing API key: the same, for SVC_API_KEY', () => {
    refuseEnvReads();
    let error: unknown;
    try {
      new A11yClient({ baseUrl: 'https://a11y.example.com' });
    } catch (caught) {
      error = caught;
    }
    Object.defineProperty(process, 'env', original);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(
      /^Cannot read SVC_API_KEY \(NotCapable: .*--allow-env flag\): pass the option instead\.$/,
    );
  });

  it('key, base URL and log level given: the environment is never read', () => {
    refuseEnvReads();
    try {
      expect(
        () => new A11yClient({ apiKey: 'svc_test_key_123456', baseUrl: 'https://a11y.example.com', logLevel: 'off' }),
      ).not.toThrow();
    } finally {
      Object.defineProperty(process, 'env', original);
    }
  });

  it('SVC_LOG refused: the client logs nothing instead of failing (the log level is optional)', () => {
    refuseEnvReads();
    try {
      expect(
        () => new A11yClient({ apiKey: 'svc_test_key_123456', baseUrl: 'https://a11y.example.com' }),
      ).not.toThrow();
    } finally {
      Object.defineProperty(process, 'env', original);
    }
  });

  it('where reading works, a blank value is still unset (control)', () => {
    const saved = process.env.SVC_BASE_URL;
    process.env.SVC_BASE_URL = '   ';
    try {
      expect(() => new A11yClient({ apiKey: 'svc_test_key_123456' })).toThrow(/^No base URL: /);
      process.env.SVC_BASE_URL = ' https://a11y.example.com ';
      expect(() => new A11yClient({ apiKey: 'svc_test_key_123456' })).not.toThrow();
    } finally {
      if (saved === undefined) delete process.env.SVC_BASE_URL;
      else process.env.SVC_BASE_URL = saved;
    }
  });
});
