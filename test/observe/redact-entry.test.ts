// @svc/a11y-sdk/redact: the one implementation of URL-credential and token-parameter redaction, used by the SDK's
// debug logs and by the CLI's reports (src/cli/io/safe-text.ts delegates to it).
import { describe, expect, it } from 'vitest';
import { withoutTokenParameters, withoutUrlCredentials } from '../../src/cli/io/safe-text.js';
import { redactSecret, redactTokenParameters, redactUrlCredentials } from '../../src/redact/index.js';

const samples = [
  'see https://user:pa55@host.example/x and "http://a:b@c/"',
  'https://h/?access_token=abc&page=2#id_token=xyz',
  '?X-Amz-Signature=deadbeef&api-key=k1&code=123&other=fine',
  'nothing to redact here',
];

describe('@svc/a11y-sdk/redact', () => {
  it('redacts URL credentials (serialised and raw) and credential-like parameters, keeping names', () => {
    expect(redactUrlCredentials('see https://u:p@h/x')).toBe('see https://[redacted]@h/x');
    expect(redactUrlCredentials('https://u:p"w@h/', { raw: true })).toBe('https://[redacted]@h/');
    expect(redactTokenParameters('https://h/?access_token=abc&page=2')).toBe(
      'https://h/?access_token=[redacted]&page=2',
    );
    expect(redactSecret('key svc_abc-123_xyz', 'svc_abc-123_xyz')).toBe('key [redacted]');
  });

  it("is what the CLI's reports use: the same output for every sample", () => {
    for (const text of samples) {
      expect(withoutUrlCredentials(text)).toBe(redactUrlCredentials(text));
      expect(withoutTokenParameters(text)).toBe(redactTokenParameters(text));
    }
    expect(redactTokenParameters(samples[2]!)).toBe(
      '?X-Amz-Signature=[redacted]&api-key=[redacted]&code=[redacted]&other=fine',
    );
  });
});
