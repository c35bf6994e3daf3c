// `wowc cron`, run in-process with a fake io.
import { describe, expect, it } from "vitest";
import { runCronCommand } from "../../../compiler/cli/cron-command.js";

function run(...args: string[]): { code: number; stdout: string; stderr: string } {
  let stdout = "";
  let stderr = "";
  const code = runCronCommand(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) }, { now: () => Date.parse("2025-01-01T00:00:00Z") });
  return { code, stdout, stderr };
}

describe("wowc cron", () => {
  it("prints the next fire times as a table: UTC, local time with offset, zone", () => {
    const { code, stdout, stderr } = run("0 0 2 * * *", "--zone", "Europe/Rome", "--from", "2025-03-28T12:00:00Z", "--count", "3");
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toBe(
      [
        'Next 3 fire times of "0 0 2 * * *" in Europe/Rome, after 2025-03-28T12:00:00.000Z:',
        "UTC                       Local                       Zone",
        "2025-03-29T01:00:00.000Z  2025-03-29 02:00:00 +01:00  Europe/Rome",
        "2025-03-31T00:00:00.000Z  2025-03-31 02:00:00 +02:00  Europe/Rome",
        "2025-04-01T00:00:00.000Z  2025-04-01 02:00:00 +02:00  Europe/Rome",
        // The day of the spring gap is named, not silently missing from the list.
        "Skipped: 2025-03-30 02:00:00 does not exist in Europe/Rome (the clocks skip ahead at 2025-03-30T01:00:00.000Z), so the rule does not fire that day (WOW4011 in a build).",
        "",
      ].join("\n"),
    );
  });

  it("defaults to UTC, now and 5 fire times", () => {
    const { code, stdout } = run("@daily");
    expect(code).toBe(0);
    const rows = stdout.trim().split("\n").slice(2);
    expect(rows).toHaveLength(5);
    expect(rows[0]).toBe("2025-01-02T00:00:00.000Z  2025-01-02 00:00:00 +00:00  UTC");
  });

  it("--json prints one object, both instants of a repeated hour included", () => {
    const { code, stdout } = run("0 30 1 * * *", "--zone=America/New_York", "--from=2025-11-02T04:00:00Z", "--count=2", "--json");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      expression: "0 30 1 * * *",
      zone: "America/New_York",
      from: "2025-11-02T04:00:00.000Z",
      next: [
        { utc: "2025-11-02T05:30:00.000Z", local: "2025-11-02T01:30:00", offset: "-04:00" },
        { utc: "2025-11-02T06:30:00.000Z", local: "2025-11-02T01:30:00", offset: "-05:00" },
      ],
      skipped: [],
    });
  });

  it("--json lists the matches a DST gap skips between the fire times it prints", () => {
    const { stdout } = run("0 30 2 * * *", "--zone", "Europe/Berlin", "--from", "2026-03-27T00:00:00Z", "--count", "4", "--json");
    const out = JSON.parse(stdout);
    expect(out.next.map((f: { local: string }) => f.local.slice(0, 10))).toEqual(["2026-03-27", "2026-03-28", "2026-03-30", "2026-03-31"]);
    expect(out.skipped).toEqual([{ local: "2026-03-29T02:30:00", skippedAtMs: Date.parse("2026-03-29T01:00:00Z") }]);
  });

  it("shows offsets with half hours (Lord Howe)", () => {
    const { stdout } = run("0 0 12 * * *", "--zone", "Australia/Lord_Howe", "--from", "2025-07-01T00:00:00Z", "--count", "1", "--json");
    expect(JSON.parse(stdout).next[0]).toEqual({ utc: "2025-07-01T01:30:00.000Z", local: "2025-07-01T12:00:00", offset: "+10:30" });
  });

  it("a bad expression is a WOW4001 diagnostic underlining the offending text, exit 1", () => {
    const { code, stdout, stderr } = run("0 0 25 * * *");
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain("<expression>:1:5 - error WOW4001: Invalid cron expression: 25 is out of range for hour (0-23)");
    const lines = stderr.split("\n");
    const source = lines.findIndex((l) => l.endsWith("0 0 25 * * *"));
    expect(lines[source + 1]!.indexOf("~~")).toBe(lines[source]!.indexOf("25"));
    expect(lines[source + 1]!.trim()).toBe("~~");
  });

  it("a never-firing expression is WOW4002, exit 1; --json gives the diagnostic as JSON", () => {
    const text = run("0 0 0 31 2 MON");
    expect(text.code).toBe(1);
    expect(text.stderr).toContain("error WOW4002: The cron expression '0 0 0 31 2 MON' can never fire.");
    const json = run("* * * * *", "--json");
    expect(json.code).toBe(1);
    const [diagnostic] = JSON.parse(json.stdout).diagnostics;
    expect(diagnostic).toMatchObject({ code: "WOW4001", file: "<expression>", line: 1, column: 1, endColumn: 10 });
    expect(diagnostic.message).toContain("did you mean");
  });

  it("says so, and exits 1, when every match falls into a DST gap in that zone", () => {
    const { code, stdout } = run("0 30 2 31 3 SUN", "--zone", "Europe/Berlin");
    expect(code).toBe(1);
    expect(stdout).toContain("No fire time within 400 years");
  });

  it.each([
    [[], "The cron expression is missing"],
    [["0 0 * * * *", "--zone", "Mars/Olympus"], "Unknown time zone 'Mars/Olympus'"],
    [["0 0 * * * *", "--from", "yesterday"], "--from 'yesterday' is not an ISO instant"],
    [["0 0 * * * *", "--count", "0"], "--count '0' must be a whole number from 1 to 1000"],
    [["0 0 * * * *", "--count"], "--count needs a value"],
    [["0 0 * * * *", "--verbose"], "Unknown option '--verbose'"],
    [["0", "0", "*", "*", "*", "*"], "quote it"],
  ])("usage error %j → exit 2", (args, message) => {
    const { code, stderr } = run(...args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain("Usage: wowc cron");
  });

  it("--help prints the usage", () => {
    const { code, stdout } = run("--help");
    expect(code).toBe(0);
    expect(stdout).toContain("Exit status: 0 ok, 1 invalid expression or one that never fires (in the zone), 2 usage error");
  });
});
