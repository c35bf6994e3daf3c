// Canonical JSON: object keys sorted at every level, two-space indent, `\n` line endings and a
// trailing newline. Arrays keep the order they are given (the manifest builder sorts those whose
// order carries no meaning). Written in one pass, without copying the value.

export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  write(value, "", out);
  out.push("\n");
  return out.join("");
}

function write(value: unknown, indent: string, out: string[]): void {
  if (value === null || typeof value !== "object") {
    out.push(JSON.stringify(value) ?? "null");
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push("[]");
      return;
    }
    out.push("[");
    for (let i = 0; i < value.length; i++) {
      out.push(i === 0 ? `\n${inner}` : `,\n${inner}`);
      write(value[i], inner, out);
    }
    out.push(`\n${indent}]`);
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  if (keys.length === 0) {
    out.push("{}");
    return;
  }
  out.push("{");
  for (let i = 0; i < keys.length; i++) {
    out.push(`${i === 0 ? "\n" : ",\n"}${inner}${JSON.stringify(keys[i])}: `);
    write(record[keys[i]], inner, out);
  }
  out.push(`\n${indent}}`);
}
