// A table of one page of rows: its column headings, a row saying so when there are none, and under it
// the cursor pager when the rows come a page at a time.
import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { Pager } from "./pager.js";

/** The cursors of the pages moved through so far; the last one (`cursor`) asks for the page shown. */
export function useCursors(): { cursors: readonly string[]; cursor: string | undefined; setCursors: (cursors: readonly string[]) => void } {
  const [cursors, setCursors] = useState<readonly string[]>([]);
  return { cursors, cursor: cursors[cursors.length - 1], setCursors };
}

/** What the pager under a table shows and moves: as `Pager` takes it. */
export interface Pages {
  readonly cursors: readonly string[];
  readonly next: string | undefined;
  readonly onMove: (cursors: readonly string[]) => void;
  readonly label: string;
}

/** `empty`: the text of the row shown when there are no rows (none when not given); `pages`: the pager under the table. */
export function PagedTable<T>({ testId, caption, columns, rows, row, empty, pages }: { testId: string; caption: string; columns: readonly string[]; rows: readonly T[]; row: (item: T) => VNode; empty?: string; pages?: Pages }) {
  return (
    <>
      <table data-testid={testId}>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {empty !== undefined && rows.length === 0 && (
            <tr>
              <td colSpan={columns.length} class="muted">
                {empty}
              </td>
            </tr>
          )}
          {rows.map((item) => row(item))}
        </tbody>
      </table>
      {pages !== undefined && <Pager {...pages} />}
    </>
  );
}
