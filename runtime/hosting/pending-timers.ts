// Pending timers for operators' listings. The Journal interface has no listing of pending timers
// yet, so this reads the two known stores directly (read-only): SQLite's `wow_timers` table, and the
// memory journal's map. TODO: a `Journal.pending(limit)` once the timer path work settles.
import type { Journal, TimerRow } from "../journal/journal.js";
import { SqliteJournal } from "../journal/sqlite-journal.js";

export async function pendingTimers(journal: Journal, limit: number): Promise<TimerRow[]> {
  if (journal instanceof SqliteJournal) {
    const ids = journal.db.prepare<[number], { id: string }>("SELECT id FROM wow_timers WHERE status = 0 ORDER BY due, id LIMIT ?").all(limit);
    const rows = await Promise.all(ids.map((r) => journal.timer(r.id)));
    return rows.filter((r): r is TimerRow => r !== undefined);
  }
  const timers = (journal as unknown as { timers?: Map<string, TimerRow> }).timers;
  if (!(timers instanceof Map)) return [];
  return [...timers.values()]
    .filter((t) => t.status === "pending")
    .sort((a, b) => a.due - b.due || (a.id < b.id ? -1 : 1))
    .slice(0, limit)
    .map((t) => structuredClone(t));
}
