// doctor's line about the proxy: the one the CLI's requests go through (io/proxy.ts reads the same variables), its
// credentials redacted. Whether it lets the requests through is told by the base URL's line, whose request took it.
import { PROXY_VARIABLES, proxySettings, proxyVariablesFor } from '../../io/proxy.js';
import { withoutUrlCredentials } from '../../io/safe-text.js';
import type { Env } from '../../settings/settings.js';
import { type CheckLine, fail, info } from './lines.js';
import { parseUrl } from '../../io/parse-url.js';

/**
 * The proxy line: none set, the proxies set (credentials redacted) and which one the API's requests take, or a
 * proxy variable that is not a URL.
 * @example proxyLine({ HTTPS_PROXY: 'http://u:p@proxy:3128' }, 'https://a11y.example.com').text
 * // 'HTTPS_PROXY http://[redacted]@proxy:3128/; requests to https://a11y.example.com go through HTTPS_PROXY'
 */
export function proxyLine(env: Env, baseUrl: string | undefined): CheckLine {
  const settings = proxySettings(env);
  if (!settings)
    return info('proxy', 'proxy', 'none set (HTTPS_PROXY, HTTP_PROXY, in either case): requests go direct');
  const set = PROXY_VARIABLES.filter((name) => env[name]?.trim());
  // Never the value itself: a URL that does not parse still holds its password.
  const malformed = set.filter((name) => !isProxyUrl(env[name]!.trim()));
  if (malformed.length)
    return fail(
      'proxy',
      'proxy',
      `${malformed.join(', ')} is not an http:// or https:// URL: write it as http://host:port (with user:password@ before the host when the proxy asks for them)`,
      'setting',
    );
  const shown = set.map((name) => `${name} ${withoutUrlCredentials(new URL(env[name]!.trim()).href)}`);
  const noProxy = settings.noProxy ? `; NO_PROXY ${settings.noProxy}` : '';
  const target = baseUrl ? parseUrl(baseUrl) : undefined;
  const used = target ? proxyVariablesFor(env, target.protocol) : [];
  const route = !target
    ? ''
    : used.length
      ? `; requests to ${target.origin} go through ${used.join(', ')}${settings.noProxy ? ' unless NO_PROXY names its host' : ''}`
      : `; requests to ${target.origin} go direct (no proxy is set for ${target.protocol.replace(':', '')}://)`;
  return info('proxy', 'proxy', `${shown.join(', ')}${noProxy}${route}`);
}

// What undici takes for a proxy: an http:// or https:// URL with a host (`user:pw@proxy` parses as a URL of the
// scheme `user:`, and is not one).
function isProxyUrl(text: string): boolean {
  const url = parseUrl(text);
  if (!url) return false;
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}
