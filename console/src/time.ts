// Times as a person reads them, always with their zone: the job's zone and the viewer's.

export const viewerZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-GB", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23", timeZoneName: "short" });
    formats.set(zone, format);
  }
  return format;
}

/** `2026-10-20 06:00:00 CEST (Europe/Paris)`. */
export function inZone(iso: string, zone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = Object.fromEntries(formatOf(zone).formatToParts(date).map((p) => [p.type, p.value]));
  const named = parts.timeZoneName === zone ? zone : `${parts.timeZoneName} (${zone})`;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${named}`;
}

/** In the viewer's zone. */
export function local(iso: string): string {
  return inZone(iso, viewerZone);
}

export function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A `datetime-local` input's value (the viewer's zone) as an ISO instant. */
export function fromLocalInput(value: string): string | undefined {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
