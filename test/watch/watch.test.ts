// `wowc build --watch`: debouncing on an injected clock; then real file-system events —
// edit, break and fix a file — awaited as promises, never with fixed sleeps.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { describeBuild } from "../../compiler/cli/watch-command.js";
import { Watcher, type RebuildReport, type WatchClock } from "../../compiler/watch/watcher.js";
import { scratchDir } from "../tools/run-wowc.js";

const order = "context shop\n\naggregate Order {\n  command Place { sku: string }\n  event Placed { sku: string }\n\n  @OnCommand(produces = [Placed])\n  on Place\n}\n";
const stock = "context stock\n\naggregate Stock {\n  command Receive { quantity: int }\n  event Received { quantity: int }\n\n  @OnCommand(produces = [Received])\n  on Receive\n}\n";

function project(): string {
  const dir = scratchDir("wowc-watch-");
  writeFileSync(join(dir, "order.wow"), order);
  writeFileSync(join(dir, "stock.wow"), stock);
  return dir;
}

/** A clock whose timers run only when the test says so. */
class ManualClock implements WatchClock {
  private timers = new Map<number, { at: number; callback: () => void }>();
  private next = 0;
  time = 0;
  setTimeout(callback: () => void, ms: number): unknown {
    this.timers.set(++this.next, { at: this.time + ms, callback });
    return this.next;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
    for (const [id, timer] of [...this.timers].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at <= this.time && this.timers.delete(id)) timer.callback();
    }
  }
  get pending(): number {
    return this.timers.size;
  }
}

const noFiles = () => ({ close: () => undefined });

describe("watch: debounce (injected clock)", () => {
  it("rebuilds once after a burst of changes, only for .wow files and the config", () => {
    const clock = new ManualClock();
    const builds: RebuildReport[] = [];
    const watcher = new Watcher({ root: project(), clock, debounceMs: 50, watchFiles: noFiles, onBuild: (r) => builds.push(r) });
    watcher.start();
    expect(builds).toHaveLength(1);
    watcher.changed("notes.txt");
    watcher.changed("generated/wow-manifest.json");
    watcher.changed("node_modules/x/a.wow");
    // Only notes.txt is looked at (an event anywhere may hide a rename): nothing the build reads changed.
    expect(clock.pending).toBe(1);
    clock.advance(50);
    expect(builds).toHaveLength(1);
    watcher.changed("order.wow");
    clock.advance(30);
    watcher.changed("stock.wow");
    clock.advance(30);
    expect(builds).toHaveLength(1);
    watcher.changed("wow.config.json");
    clock.advance(50);
    expect(builds).toHaveLength(2);
    expect(builds[1]!.changes).toEqual(["order.wow", "stock.wow", "wow.config.json"]);
    expect(builds[1]!.parsed).toBe(0);
    watcher.close();
  });

  it("saves reported as a build ends (Node delivers those made during one after it) give one more rebuild, with the saved text", () => {
    const clock = new ManualClock();
    const builds: RebuildReport[] = [];
    const dir = project();
    const watcher = new Watcher({
      root: dir,
      clock,
      debounceMs: 10,
      watchFiles: noFiles,
      onBuild: (r) => {
        builds.push(r);
        if (r.number !== 1) return;
        // Saved while the first rebuild ran: five events for one file, after it.
        writeFileSync(join(dir, "order.wow"), order.replace("sku: string }", "sku: string, gift: boolean }"));
        for (let i = 0; i < 5; i++) watcher.changed("order.wow");
      },
    });
    watcher.start();
    writeFileSync(join(dir, "order.wow"), order.replace("sku: string }", "sku: string, note: string? }"));
    watcher.changed("order.wow");
    clock.advance(10);
    expect(builds).toHaveLength(2);
    expect(builds[1]!.parsed).toBe(1);
    clock.advance(10);
    expect(builds).toHaveLength(3);
    expect(builds[2]).toMatchObject({ ok: true, parsed: 1, changes: ["order.wow"] });
    expect(readFileSync(join(dir, "generated/wow-manifest.json"), "utf8")).toContain('"gift"');
    clock.advance(100);
    expect(builds).toHaveLength(3);
    watcher.close();
  });
});

describe("watch: an event is a hint to look again (injected clock)", () => {
  it("an atomic save reported only by its temp file's name rebuilds the saved file, each time", () => {
    const clock = new ManualClock();
    const builds: RebuildReport[] = [];
    const dir = project();
    const watcher = new Watcher({ root: dir, clock, debounceMs: 10, watchFiles: noFiles, onBuild: (r) => builds.push(r) });
    watcher.start();
    for (const note of ["a", "b", "c"]) {
      writeFileSync(join(dir, "order.wow.tmp"), order.replace("sku: string }\n  event", `sku: string, ${note}: int }\n  event`));
      renameSync(join(dir, "order.wow.tmp"), join(dir, "order.wow"));
      watcher.changed("order.wow.tmp");
      clock.advance(10);
      expect(builds.at(-1)).toMatchObject({ ok: true, parsed: 1, changes: ["order.wow"] });
      expect(readFileSync(join(dir, "generated/wow-manifest.json"), "utf8")).toContain(`"${note}"`);
    }
    expect(builds).toHaveLength(4);
    // An event that changed nothing the build reads (a temp file gone, a swap file) builds nothing.
    watcher.changed("order.wow.tmp");
    watcher.changed(".order.wow.swp");
    clock.advance(10);
    expect(builds).toHaveLength(4);
    watcher.close();
  });

  it("a directory renamed or moved out, reported by its names only: its sources follow", () => {
    const clock = new ManualClock();
    const builds: RebuildReport[] = [];
    const dir = project();
    mkdirSync(join(dir, "src/a"), { recursive: true });
    renameSync(join(dir, "stock.wow"), join(dir, "src/a/stock.wow"));
    const watcher = new Watcher({ root: dir, clock, debounceMs: 10, watchFiles: noFiles, onBuild: (r) => builds.push(r) });
    expect(watcher.start()).toMatchObject({ ok: true, sources: 2 });
    renameSync(join(dir, "src/a"), join(dir, "src/b"));
    watcher.changed("src/a");
    watcher.changed("src/b");
    clock.advance(10);
    expect(builds[1]).toMatchObject({ ok: true, sources: 2, parsed: 1, changes: ["src/a/stock.wow", "src/b/stock.wow"] });
    renameSync(join(dir, "src/b"), join(scratchDir("wowc-watch-away-"), "b"));
    watcher.changed("src/b");
    clock.advance(10);
    expect(builds[2]).toMatchObject({ ok: true, sources: 1, changes: ["src/b/stock.wow"] });
    expect(readFileSync(join(dir, "generated/wow-manifest.json"), "utf8")).not.toContain('"stock"');
    watcher.close();
  });
});

describe("watch: real file-system events", () => {
  let watcher: Watcher | undefined;
  afterEach(() => watcher?.close());

  it("edit, break and fix a file: reports each build, survives the error, writes only changed outputs", async () => {
    const dir = project();
    // fs.watch may report one write as several events: a build that parsed nothing is such an echo.
    let waiting: { accept: (r: RebuildReport) => boolean; done: (r: RebuildReport) => void } | undefined;
    watcher = new Watcher({
      root: dir,
      debounceMs: 20,
      onBuild: (r) => {
        if (waiting?.accept(r) === true) {
          const { done } = waiting;
          waiting = undefined;
          done(r);
        }
      },
    });
    const nextBuild = (accept = (r: RebuildReport) => r.parsed > 0) => new Promise<RebuildReport>((done) => (waiting = { accept, done }));
    const first = watcher.start();
    expect(first).toMatchObject({ ok: true, parsed: 2, sources: 2 });
    expect(first.written).toContain("wow-manifest.json");
    const manifest = join(dir, "generated/wow-manifest.json");

    let next = nextBuild();
    writeFileSync(join(dir, "order.wow"), order.replace("{ sku: string }\n  event", "{ sku: string, priority: int }\n  event"));
    const edited = await next;
    expect(edited).toMatchObject({ ok: true, parsed: 1, sources: 2, changes: ["order.wow"] });
    expect(edited.written).toContain("wow-manifest.json");
    expect(readFileSync(manifest, "utf8")).toContain('"priority"');
    expect(describeBuild(edited)).toMatch(/^Rebuilt in \d+ ms \(1 of 2 files parsed; \d+ written\)\. Watching for changes\.\n$/);

    next = nextBuild();
    writeFileSync(join(dir, "order.wow"), order.replace("sku: string }\n  event", "sku: }\n  event"));
    const broken = await next;
    expect(broken.ok).toBe(false);
    expect(broken.written).toEqual([]);
    expect(broken.diagnostics.map((d) => d.code)).toContain("WOW1007");
    expect(describeBuild(broken)).toMatch(/order\.wow:4:\d+ - error WOW1007[\s\S]*Rebuild failed in \d+ ms \(1 of 2 files parsed\); nothing written\. Watching for changes\.\n$/);
    expect(readFileSync(manifest, "utf8")).toContain('"priority"');

    next = nextBuild();
    writeFileSync(join(dir, "order.wow"), order);
    const fixed = await next;
    expect(fixed).toMatchObject({ ok: true, parsed: 1 });
    expect(readFileSync(manifest, "utf8")).not.toContain('"priority"');

    // Touching a file without changing it re-parses nothing and writes nothing.
    next = nextBuild(() => true);
    writeFileSync(join(dir, "stock.wow"), stock);
    const same = await next;
    expect(same).toMatchObject({ ok: true, parsed: 0, written: [], removed: [] });
  });
});
