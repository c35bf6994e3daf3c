// A fire time as people read it: the UTC instant, the local time in the rule's zone and that zone's
// offset then (the CLI's `wowc cron`, the language server's hovers, the host's cron preview).
import { civilFromDays, SECONDS_PER_DAY } from "./calendar.js";
import { zoneClock } from "./zone.js";

export interface FireTime {
  readonly utc: string;
  /** `YYYY-MM-DDTHH:MM:SS` in the zone. */
  readonly local: string;
  /** `+01:00`, `-05:00`, `+05:45` (seconds when the zone's offset has them). */
  readonly offset: string;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function formatOffset(seconds: number): string {
  const sign = seconds < 0 ? "-" : "+";
  const abs = Math.abs(seconds);
  const rest = abs % 60;
  return `${sign}${pad(Math.floor(abs / 3600))}:${pad(Math.floor(abs / 60) % 60)}${rest === 0 ? "" : `:${pad(rest)}`}`;
}

/** The instant `ms` in `zone` (a valid tz database name). */
export function fireTime(ms: number, zone: string): FireTime {
  const clock = zoneClock(zone);
  const utcSecond = Math.floor(ms / 1000);
  clock.locate(utcSecond);
  const local = utcSecond + clock.periodOffset;
  const days = Math.floor(local / SECONDS_PER_DAY);
  const time = local - days * SECONDS_PER_DAY;
  const date = civilFromDays(days, { year: 0, month: 0, day: 0 });
  return {
    utc: new Date(ms).toISOString(),
    local: `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}T${pad(Math.floor(time / 3600))}:${pad(Math.floor(time / 60) % 60)}:${pad(time % 60)}`,
    offset: formatOffset(clock.periodOffset),
  };
}
