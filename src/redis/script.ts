// The store's one Lua script (atomic in Redis) and how its arguments and reply are read. Redis' own clock
// (`TIME`) decides, so the clocks of the machines sharing it never disagree. A value the script cannot read
// (written by hand, by another program, or damaged) never disables the budget: it is replaced with a
// conservative one (the burst spent) and reported, so the client warns once.
import { MAX_PAUSE_MS } from '../rate-limit/pause.js';
import { gcraParameters } from '../core/gcra.js';
import type { RateLimit } from '../core/rate-limit-store.js';
import { windowParameters } from '../core/rate-window.js';

// Longest a budget's next slot may lie ahead before its value is judged unreadable: the longest pause plus a
// month of queued slots (any real queue is far shorter).
const MAX_AHEAD_MS = MAX_PAUSE_MS + 30 * 24 * 3600 * 1000;

// KEYS[1] budget (GCRA's theoretical arrival time, Redis ms), KEYS[2] its sharers (client id → last seen, ms),
// KEYS[3] the pause: present while a 429's pause lasts, its time to live being what is left, KEYS[4] the
// window's log: the slots reserved in the last window (Redis ms), oldest first, at most `capacity` of them (a
// list: the slot `capacity` places back is one LINDEX, the new one an RPUSH and an LTRIM).
// ARGV: op ('reserve' | 'pause' | 'refund'), interval ms, tolerance ms, client id, pause ms (whole, ≥ 0),
// the longest lead of a readable budget value, ms, the window's capacity, the window ms.
// Returns { wait ms, sharers seen in the last minute, pause ms left (0: none; nothing was reserved when > 0),
// 1 when an unreadable value was replaced }.
/** @internal */
export const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[2])
local tolerance = tonumber(ARGV[3])
local ahead = tonumber(ARGV[6])
local capacity = tonumber(ARGV[7])
local window = tonumber(ARGV[8])
local reserve = ARGV[1] == 'reserve'
local corrupt = 0
-- A readable time: a number, not NaN (v ~= v), not negative, not infinite or too far ahead.
local function readable(v)
  return v ~= nil and v == v and v >= 0 and v <= now + ahead
end
-- A command on a key of another type answers an error (pcall keeps it): the key is unreadable.
local function wrong(reply)
  return type(reply) == 'table' and reply.err ~= nil
end
local tat = 0
local got = redis.pcall('GET', KEYS[1])
if wrong(got) then
  corrupt = 1
elseif got then
  local v = tonumber(got)
  if readable(v) then tat = v else corrupt = 1 end
end
-- The log's newest slot and the one capacity places back (0: none, the log is shorter), read only to reserve.
local newest = 0
local oldest = 0
if reserve then
  local a = redis.pcall('LINDEX', KEYS[4], -1)
  if wrong(a) then
    corrupt = 1
    redis.call('DEL', KEYS[4])
  elseif a then
    a = tonumber(a)
    local b = tonumber(redis.call('LINDEX', KEYS[4], -capacity) or 0)
    if readable(a) and readable(b) then
      newest = a
      oldest = b
    else
      -- An unreadable log says nothing of the last window: it is dropped, and the burst counts as spent.
      corrupt = 1
      redis.call('DEL', KEYS[4])
    end
  end
end
-- Unreadable: the burst counts as spent and the next slot is one interval away.
if corrupt == 1 then tat = math.max(tat, now + tolerance + interval) end
local pause = redis.call('PTTL', KEYS[3])
if pause == -1 then
  -- A pause without an end was not written by this script: unreadable.
  corrupt = 1
  redis.call('DEL', KEYS[3])
end
if pause < 0 then pause = 0 end
local wait = 0
if reserve then
  -- Nothing is reserved inside a pause: such slots would all be sent the moment it ends.
  if pause == 0 then
    if tat < now then tat = now end
    -- GCRA's slot, never before a slot already reserved, and a window after the slot capacity places back.
    local slot = math.max(now, tat - tolerance, newest)
    if oldest > 0 then slot = math.max(slot, oldest + window) end
    wait = slot - now
    -- A slot the window pushed later spends the spacing from there: the burst refills only after it.
    tat = math.max(tat, slot) + interval
    redis.call('RPUSH', KEYS[4], string.format('%.3f', slot))
    redis.call('LTRIM', KEYS[4], -capacity, -1)
    redis.call('PEXPIRE', KEYS[4], math.ceil(slot - now + window) + 1000)
    if wrong(redis.pcall('ZADD', KEYS[2], now, ARGV[4])) then
      corrupt = 1
      redis.call('DEL', KEYS[2])
      redis.call('ZADD', KEYS[2], now, ARGV[4])
    end
  end
elseif ARGV[1] == 'pause' then
  local d = tonumber(ARGV[5])
  if d > pause then
    redis.call('SET', KEYS[3], string.format('%d', now + d), 'PX', ARGV[5])
    pause = d
  end
  if now + d + tolerance > tat then tat = now + d + tolerance end
else
  tat = math.max(now, tat - interval)
end
-- (0: a budget never used, asked to reserve inside a pause: nothing to write)
if tat > 0 then
  redis.call('SET', KEYS[1], string.format('%.3f', tat), 'PX', string.format('%d', math.max(1, math.ceil(tat - now)) + 60000))
end
-- The sharers of the last minute. Only this script writes them, at Redis' now: an entry from the future was not,
-- and is not counted.
local since = string.format('%d', now - 60000)
local sharers = redis.pcall('ZCOUNT', KEYS[2], since, string.format('%d', now))
if wrong(sharers) then
  corrupt = 1
  redis.call('DEL', KEYS[2])
  sharers = 0
else
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. since)
  redis.call('ZREMRANGEBYSCORE', KEYS[2], string.format('(%d', now), '+inf')
  redis.call('PEXPIRE', KEYS[2], 120000)
end
return { math.ceil(wait), sharers, pause, corrupt }
`;

/** The script's KEYS and ARGV (after the key count) for one operation on budget `key`. @internal */
export function scriptArgs(key: string, op: string, limit: RateLimit, member: string, pauseMs: number): string[] {
  const { intervalMs, toleranceMs } = gcraParameters(limit);
  const { windowMs, capacity } = windowParameters(limit);
  return [
    '4',
    key,
    `${key}:sharers`,
    `${key}:pause`,
    `${key}:log`,
    op,
    String(intervalMs),
    String(toleranceMs),
    member,
    String(pauseMs),
    String(MAX_AHEAD_MS + toleranceMs),
    String(capacity),
    String(windowMs),
  ];
}

/**
 * The script's reply, checked: anything but finite numbers ≥ 0 is a failure of the store (the client then
 * spaces its own requests), never a wait of 0 that would disable the budget. @internal
 */
export function readReply(reply: unknown): { waitMs: number; sharers: number; pauseMs: number; corrupt: boolean } {
  const [waitMs, sharers, pauseMs, corrupt] = Array.isArray(reply) ? reply.map(Number) : [];
  for (const n of [waitMs, sharers, pauseMs]) {
    if (!(Number.isFinite(n) && n! >= 0))
      throw new TypeError(`Redis answered the rate-limit script with an unreadable reply (${describeReply(reply)}).`);
  }
  return { waitMs: waitMs!, sharers: Math.max(1, sharers!), pauseMs: pauseMs!, corrupt: corrupt === 1 };
}

function describeReply(reply: unknown): string {
  try {
    return JSON.stringify(reply).slice(0, 200);
  } catch {
    return typeof reply;
  }
}
