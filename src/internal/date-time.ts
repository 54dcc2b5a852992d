// RFC 3339 §5.6 date-times, as JSON Schema's `format: date-time` means them. zod's z.iso.datetime() is
// narrower than the RFC: it refuses the lower-case `t` and `z` the RFC allows (§5.6 NOTE) and every leap second
// (`23:59:60Z`), so a valid answer of the service would fail response validation. The generated schemas call
// this check instead (scripts/generate.mjs).

// Structure only; the ranges are checked below. `\d` is ASCII digits (no `u` flag), so `১৯৯০-…` does not pass.
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * Whether `value` is an RFC 3339 date-time: `full-date "T" full-time`, `T` and `Z` in either case, seconds
 * with any fraction, an offset `Z` or `±hh:mm`; a day that exists in its month (29 February in leap years
 * only); a leap second `:60` only where it falls on 23:59 UTC (the only minute a leap second is inserted in).
 * @example isRfc3339DateTime('1998-12-31t23:59:60.5z') // true
 * @example isRfc3339DateTime('1998-12-31T15:59:60-08:00') // true: 23:59:60 UTC
 * @example isRfc3339DateTime('2024-02-30T10:00:00Z') // false
 */
export function isRfc3339DateTime(value: string): boolean {
  const m = SHAPE.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetHours = Number(m[8] ?? 0);
  const offsetMinutes = Number(m[9] ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false;
  if (hour > 23 || minute > 59 || second > 60 || offsetHours > 23 || offsetMinutes > 59) return false;
  if (second < 60) return true;
  // Local time minus the offset is UTC; a leap second ends the UTC day's last minute.
  const sign = m[7] === '-' ? -1 : 1;
  const utcMinute = (((hour * 60 + minute - sign * (offsetHours * 60 + offsetMinutes)) % 1440) + 1440) % 1440;
  return utcMinute === 23 * 60 + 59;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
