// Spring-compatible cron: parse, next fire time in any time zone, never-fires check.
export { CronExpression, type SkippedTime } from "./cron-expression.js";
export { CronSyntaxError, type CronFieldName } from "./syntax-error.js";
export { isValidTimeZone, zoneNames, zoneSpelling } from "./zone.js";
