// UTC offsets of a time zone as a table of periods of constant offset, built lazily a year at a
// time from `Intl.DateTimeFormat` and cached for the life of the process. The cron search asks
// "which offset holds at this instant, and until when?"; inside one period, local time is a plain
// shift of UTC, so the search needs no Intl and no Date in its hot path. UTC never touches Intl.
import { SECONDS_PER_DAY } from "./calendar.js";
import { zoneLinks } from "./zone-links.js";
import { ZoneOffsetReader } from "./zone-offset.js";

/** The offset period containing an instant: set by `locate`, read right after (no allocation). */
export interface ZoneClock {
  /** Finds the period containing UTC second `utcSecond`. */
  locate(utcSecond: number): void;
  /** Offset of that period, in seconds east of UTC. */
  periodOffset: number;
  /** First UTC second after that period (a transition, or where the cached table ends). */
  periodEnd: number;
}

const FIXED_UTC: ZoneClock = {
  locate(): void {},
  periodOffset: 0,
  periodEnd: Number.POSITIVE_INFINITY,
};

const UTC_NAMES = new Set(["UTC", "Etc/UTC", "GMT", "Etc/GMT"]);

/** How much of the timeline one table extension covers. */
const CHUNK = 366 * SECONDS_PER_DAY;

class ZoneTable implements ZoneClock {
  periodOffset = 0;
  periodEnd = 0;
  /** Start of each period (UTC seconds, ascending); `starts[0]` is where the table begins. */
  private starts: number[] = [];
  private offsets: number[] = [];
  /** The table covers [from, to). */
  private from = 0;
  private to = 0;
  private lastStart = 1;
  private lastEnd = 0;
  /** Reads offsets from Intl: the slow path, used only to build the table. */
  private readonly reader: ZoneOffsetReader;

  constructor(zone: string) {
    this.reader = new ZoneOffsetReader(zone);
  }

  locate(utcSecond: number): void {
    if (utcSecond >= this.lastStart && utcSecond < this.lastEnd) return;
    this.cover(utcSecond);
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= utcSecond) lo = mid;
      else hi = mid - 1;
    }
    this.periodOffset = this.offsets[lo]!;
    this.periodEnd = lo + 1 < starts.length ? Math.min(starts[lo + 1]!, this.to) : this.to;
    this.lastStart = starts[lo]!;
    this.lastEnd = this.periodEnd;
  }

  private cover(utcSecond: number): void {
    if (this.starts.length === 0) {
      this.from = this.to = Math.floor(utcSecond / CHUNK) * CHUNK;
      this.starts.push(this.from);
      this.offsets.push(this.reader.offsetAt(this.from));
    }
    while (utcSecond >= this.to) {
      const end = this.to + CHUNK;
      this.scan(this.to, end, this.offsets[this.offsets.length - 1]!, this.starts, this.offsets);
      this.to = end;
    }
    while (utcSecond < this.from) {
      const begin = this.from - CHUNK;
      const starts = [begin];
      const offsets = [this.reader.offsetAt(begin)];
      this.scan(begin, this.from, offsets[0]!, starts, offsets);
      // The scan ends on the old first period, which it has just re-found: drop the old start.
      this.starts = starts.concat(this.starts.slice(1));
      this.offsets = offsets.concat(this.offsets.slice(1));
      this.from = begin;
    }
  }

  /** Appends the transitions in (from, to]: samples daily, then bisects to the second. */
  private scan(from: number, to: number, fromOffset: number, starts: number[], offsets: number[]): void {
    let t = from;
    let offset = fromOffset;
    while (t < to) {
      const next = Math.min(t + SECONDS_PER_DAY, to);
      if (this.reader.offsetAt(next) === offset) {
        t = next;
        continue;
      }
      let lo = t;
      let hi = next;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (this.reader.offsetAt(mid) === offset) lo = mid;
        else hi = mid;
      }
      offset = this.reader.offsetAt(hi);
      starts.push(hi);
      offsets.push(offset);
      t = hi;
    }
  }
}

const validity = new Map<string, boolean>();
const tables = new Map<string, ZoneClock>();

let names: readonly string[] | undefined;
let spellings: Map<string, string> | undefined;

/** The zone names of the tz database (Intl's own list and the links it leaves out), sorted: what a suggestion is picked from. */
export function zoneNames(): readonly string[] {
  names ??= [...new Set([...Intl.supportedValuesOf("timeZone"), ...zoneLinks, ...UTC_NAMES])].sort();
  return names;
}

/**
 * The tz database's spelling of `zone` when `zone` differs from it in case only ("asia/tokyo" →
 * "Asia/Tokyo", "utc" → "UTC"), else undefined. Intl takes a zone in any case, but Java's `ZoneId`
 * (the JVM hosts that read the same manifest) takes only this spelling.
 */
export function zoneSpelling(zone: string): string | undefined {
  const spelling = tzdbSpelling(zone);
  return spelling === zone ? undefined : spelling;
}

/** The tz database name that `zone` spells in any case, if any. */
function tzdbSpelling(zone: string): string | undefined {
  if (spellings === undefined) {
    spellings = new Map();
    for (const name of zoneNames()) spellings.set(name.toLowerCase(), name);
  }
  return spellings.get(zone.toLowerCase());
}

/**
 * True for a time zone that Intl knows by a name of the tz database (e.g. "Europe/Berlin"), and for
 * "UTC", spelt as the database spells it: "europe/berlin", "PST" and "JST" are refused, as Java's
 * `ZoneId` refuses them.
 */
export function isValidTimeZone(zone: string): boolean {
  if (typeof zone !== "string") return false;
  let valid = validity.get(zone);
  if (valid === undefined) {
    // Only names of the tz database: ICU also takes abbreviations ("PST", "JST") and names the
    // database dropped ("US/Pacific-New"), which Java's ZoneId refuses.
    valid = UTC_NAMES.has(zone) || (tzdbSpelling(zone) === zone && intlKnows(zone));
    validity.set(zone, valid);
  }
  return valid;
}

function intlKnows(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** What to write instead of a zone `isValidTimeZone` refuses: the right spelling, if only its case is wrong. */
export function zoneAdvice(zone: string): string {
  const spelling = zoneSpelling(zone);
  return spelling === undefined
    ? 'use an IANA name such as "Europe/Paris" or "UTC"'
    : `zone names are case-sensitive: did you mean "${spelling}"?`;
}

/** The shared, cached clock of a zone. Throws RangeError for a zone `isValidTimeZone` refuses. */
export function zoneClock(zone: string): ZoneClock {
  let clock = tables.get(zone);
  if (clock === undefined) {
    if (UTC_NAMES.has(zone)) clock = FIXED_UTC;
    else if (isValidTimeZone(zone)) clock = new ZoneTable(zone);
    else throw new RangeError(`Unknown time zone '${String(zone)}': ${zoneAdvice(String(zone))}`);
    tables.set(zone, clock);
  }
  return clock;
}
