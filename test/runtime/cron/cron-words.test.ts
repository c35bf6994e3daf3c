// A cron rule in words (hover on a job), read from the fields the runtime's engine parses.
import { describe, expect, it } from "vitest";
import { describeCron } from "../../../runtime/cron/cron-words.js";

describe("describeCron", () => {
  it.each([
    ["0 0 6 * * *", "at 06:00:00, every day"],
    ["0 0 6,18 * * *", "at 06:00:00 and 18:00:00, every day"],
    ["*/3 * * * * *", "every 3 seconds, every day"],
    ["0 */15 * * * *", "every 15 minutes, every day"],
    ["@hourly", "every hour at :00:00, every day"],
    ["0 0 9-17 * * MON-FRI", "every hour from 09:00:00 to 17:00:00, on Monday to Friday"],
    ["0 30 2 * * SUN", "at 02:30:00, on Sunday"],
    ["5 0 0 * JAN,JUL *", "at 00:00:05, every day, in January and July"],
    ["0 0 0 1 1 *", "at 00:00:00, on day 1 of the month, in January"],
    ["0 0 0 L * *", "at 00:00:00, on the last day of the month"],
    ["0 0 0 L-3 * *", "at 00:00:00, on the last day of the month minus 3"],
    ["0 0 0 LW * *", "at 00:00:00, on the last weekday of the month"],
    ["0 0 0 15W * *", "at 00:00:00, on the weekday nearest the 15th"],
    ["0 0 12 ? * MON#2", "at 12:00:00, on the 2nd Monday of the month"],
    ["0 0 0 * * 5L", "at 00:00:00, on the last Friday of the month"],
    // Spring: with both day fields restricted, a day matches both.
    ["0 0 8 1,15 * MON", "at 08:00:00, on days 1 and 15 of the month, when it is Monday"],
  ])("%s: %s", (expression, words) => {
    expect(describeCron(expression)).toBe(words);
  });

  it("says nothing of a rule the engine refuses", () => {
    expect(describeCron("0 0 6 * *")).toBeUndefined();
  });
});
