// Cursor pages: the server's `next` cursor moves forward; the cursors seen so far move back.
export function Pager({ cursors, next, onMove, label }: { cursors: readonly string[]; next: string | undefined; onMove: (cursors: readonly string[]) => void; label: string }) {
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={cursors.length === 0} onClick={() => onMove(cursors.slice(0, -1))}>
        ← Previous page
      </button>
      <span class="muted">Page {cursors.length + 1}</span>
      <button type="button" disabled={next === undefined} onClick={() => next !== undefined && onMove([...cursors, next])}>
        Next page →
      </button>
    </nav>
  );
}
