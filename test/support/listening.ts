// The TCP ports a process listens on, read from Linux's /proc: a server a test starts on port 0 is found there,
// with no port picked in advance that another test's server could take first (and then answer in its place).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Ports in LISTEN state held by sockets of process `pid` (IPv4 and IPv6), in /proc order; empty until it listens.
 * @example const [port] = listeningPorts(child.pid!);
 */
export function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return []; // gone, or not yet started
  }
  for (const fd of fds) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (socket) inodes.add(socket[1]!);
    } catch {} // closed meanwhile
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    // Columns: sl, local_address (hex ip:port), rem_address, st (0A = LISTEN), …, inode (the tenth).
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === '0A' && cols[9] !== undefined && inodes.has(cols[9]))
        ports.push(Number.parseInt(cols[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}
