// A throwaway TLS certificate for a test's HTTPS server, made with openssl (a system tool `npm test` checks for):
// the CLI trusts it through NODE_EXTRA_CA_CERTS.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A self-signed certificate for `commonName` and the subject alternative names (`DNS:host`, `IP:127.0.0.1`), valid
 * one day: its PEM file (for NODE_EXTRA_CA_CERTS) and the key and certificate to serve.
 * @example const { certFile, key, cert } = selfSignedCertificate('localhost', ['DNS:localhost', 'IP:127.0.0.1']);
 */
export function selfSignedCertificate(
  commonName: string,
  altNames: readonly string[],
): { certFile: string; key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-a11y-tls-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1'].concat([
      '-subj',
      `/CN=${commonName}`,
      '-addext',
      `subjectAltName=${altNames.join(',')}`,
    ]),
    { stdio: 'ignore' },
  );
  return { certFile, key: readFileSync(keyFile), cert: readFileSync(certFile) };
}
