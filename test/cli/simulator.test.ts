// `svc-a11y simulator`: the built binary runs the simulator in the foreground, prints what a user needs to
// rehearse a pipeline (URL, keys, site, a ci command that works as printed), and stops cleanly on SIGTERM.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliPath, runCli } from '../support/cli.js';

describe('svc-a11y simulator', () => {
  it('prints its URL, keys and a ready-to-paste ci command that passes; SIGTERM stops it with exit 0', {
    timeout: 30_000,
  }, async () => {
    const child = spawn(process.execPath, [cliPath, 'simulator'], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 15_000;
      while (!stdout.includes('Press Ctrl-C') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(stdout).toMatch(/simulator listening on http:\/\/127\.0\.0\.1:\d+/);
      expect(stdout).toMatch(/API key \(all scopes, Pro plan\): svc_\S+/);
      expect(stdout).toContain('verified site: https://shop.example.com/');
      // The printed commands, run as printed (variables and arguments; report files left out): the baseline
      // run passes, and the gate after it passes too (nothing new).
      const [, baseUrl, apiKey] = /export SVC_BASE_URL=(\S+) SVC_API_KEY=(\S+)/.exec(stdout)!;
      const commands = stdout.split('\n').filter((l) => l.trim().startsWith('npx svc-a11y ci '));
      expect(commands).toHaveLength(2);
      for (const command of commands) {
        const argv = command
          .trim()
          .split(' ')
          .slice(3)
          .filter((a) => a !== '--report' && !/^(junit|sarif)=/.test(a));
        const r = await runCli(['ci', ...argv], { env: { SVC_BASE_URL: baseUrl!, SVC_API_KEY: apiKey! } });
        expect(r.stdout).toContain('Accessibility check: PASS');
        expect(r.code).toBe(0);
      }
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).toContain('simulator stopped (SIGTERM)');
    const port = /127\.0\.0\.1:(\d+)/.exec(stdout)![1];
    await expect(fetch(`http://127.0.0.1:${port}/api/v1/sites`)).rejects.toThrow();
  });

  it('--port that is not a port → exit 2', async () => {
    const r = await runCli(['simulator', '--port', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--port must be a whole number');
  });
});
