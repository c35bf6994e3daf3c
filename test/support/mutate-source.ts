// Mutations of `.wow` sources for robustness tests: delete, duplicate and swap tokens and lines,
// insert stray punctuation, keywords and odd characters, truncate, insert random code units.
import { pick, type Random } from "./random.js";

const TOKEN = /[A-Za-z_][A-Za-z0-9_-]*|"(?:[^"\\\n]|\\.)*"|\/\*[\s\S]*?\*\/|\/\/[^\n]*|\s+|./g;

/** Pieces that stress the lexer and the parser's recovery. */
const ODD = [
  "@", "{", "}", "(", ")", "[", "]", ",", "=", ".", "?", ":", "-", "#", ";", "`", '"', "\\", "/*", "*/", "//",
  "on", "job", "context", "state", "\u0000", "\uFEFF", "\u2028", "\uD800", "é", "日本", "😀", "\r", "\r\n", "\t", "\n",
];

function mutateOnce(text: string, random: Random): string {
  const kind = Math.floor(random() * 9);
  if (kind <= 3) {
    const tokens = text.match(TOKEN) ?? [];
    if (tokens.length === 0) return text + pick(random, ODD);
    const i = Math.floor(random() * tokens.length);
    const j = Math.floor(random() * tokens.length);
    if (kind === 0) tokens.splice(i, 1);
    else if (kind === 1) tokens.splice(i, 0, tokens[j]!);
    else if (kind === 2) [tokens[i], tokens[j]] = [tokens[j]!, tokens[i]!];
    else tokens.splice(i, 0, pick(random, ODD));
    return tokens.join("");
  }
  if (kind <= 5) {
    const lines = text.split("\n");
    const i = Math.floor(random() * lines.length);
    const j = Math.floor(random() * lines.length);
    if (kind === 4) random() < 0.5 ? lines.splice(i, 1) : lines.splice(i, 0, lines[j]!);
    else [lines[i], lines[j]] = [lines[j]!, lines[i]!];
    return lines.join("\n");
  }
  if (kind === 6) return text.slice(0, Math.floor(random() * text.length));
  const at = Math.floor(random() * text.length);
  let inserted = "";
  const count = 1 + Math.floor(random() * 6);
  for (let k = 0; k < count; k++) inserted += String.fromCharCode(Math.floor(random() * (kind === 7 ? 256 : 0x3000)));
  return text.slice(0, at) + inserted + text.slice(at);
}

/** One to four rounds of mutation. */
export function mutateSource(text: string, random: Random): string {
  let current = text;
  const rounds = 1 + Math.floor(random() * 4);
  for (let round = 0; round < rounds; round++) current = mutateOnce(current, random);
  return current;
}
