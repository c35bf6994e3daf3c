// `GET /wow/cron/preview?expression=&zone=&count=&after=`: a rule's next fire times and its words, from
// the runtime's own cron engine, so that what a page previews is what the host schedules; a rule the
// engine refuses is a 400 naming the field and the text at fault (its offset and length), for an editor
// to underline before anything is sent.
import { CronSyntaxError } from "../cron/syntax-error.js";
import { parseCron } from "../cron/cron-next.js";
import { describeCron } from "../cron/cron-words.js";
import { isValidTimeZone, zoneAdvice } from "../cron/zone.js";
import type { Clock } from "../clock.js";
import { ErrorCodes } from "../model/errors.js";
import type { Reply } from "./admin-handler.js";
import { HttpError } from "./http-error.js";
import { Query, timeFormat } from "./query.js";

/** The error code of a rule the engine refuses. */
export const CRON_SYNTAX = "CronSyntax";

/** How far ahead a preview looks: a rule that fires less often shows fewer times. */
const HORIZON_MS = 400 * 366 * 86_400_000;

export function cronPreview(clock: Clock, url: string | undefined): Reply {
  const query = new Query(url, ["expression", "zone", "count", "after", "times"]);
  const time = timeFormat(query);
  const expression = query.string("expression", 1024);
  if (expression === undefined) throw new HttpError(400, ErrorCodes.IllegalArgument, 'query parameter expression is required: six fields, such as "0 0 6 * * *"');
  const zone = query.string("zone", 120) ?? "UTC";
  if (!isValidTimeZone(zone)) throw new HttpError(400, ErrorCodes.IllegalArgument, `query parameter zone: unknown time zone ${JSON.stringify(zone)}: ${zoneAdvice(zone)}`, { field: "zone" });
  const count = query.integer("count", 1, 50) ?? 5;
  const after = query.instant("after") ?? clock.now();
  let cron;
  try {
    cron = parseCron(expression);
  } catch (error) {
    if (!(error instanceof CronSyntaxError)) throw error;
    throw new HttpError(400, CRON_SYNTAX, `${error.detail} (${error.field}, at offset ${error.offset})`, { field: error.field, text: error.text, offset: error.offset, length: error.length, detail: error.detail });
  }
  const times: number[] = [];
  for (let at = after; times.length < count; ) {
    const next = cron.nextAfterMs(at, zone, after + HORIZON_MS);
    if (next === null) break;
    times.push(next);
    at = next;
  }
  return { status: 200, body: { expression, zone, words: describeCron(expression) ?? expression, times: times.map(time), ...(times.length === 0 ? { neverFires: true } : {}) } };
}
