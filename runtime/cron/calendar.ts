// Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01), with no Date
// objects: the cron search runs on these in its hot path. Algorithms after H. Hinnant,
// "chrono-Compatible Low-Level Date Algorithms".

export const SECONDS_PER_DAY = 86_400;

/** Day number of `year-month-day` (month 1-12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = month > 2 ? month - 3 : month + 9;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** A civil date; filled in place by `civilFromDays` so the hot path allocates nothing. */
export interface Civil {
  year: number;
  month: number;
  day: number;
}

export function civilFromDays(days: number, out: Civil): Civil {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  out.year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  out.month = month;
  out.day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  return out;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const MONTH_LENGTHS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : MONTH_LENGTHS[month - 1]!;
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function dayOfWeek(days: number): number {
  return (((days + 4) % 7) + 7) % 7;
}
