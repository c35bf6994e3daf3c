// How a diagnostic words why a file or directory could not be read or written (WOW6002, WOW6003,
// WOW5006…): the common system errors in words, anything else by its message.

export function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT") return "no such file or directory.";
  if (code === "EACCES" || code === "EPERM") return "permission denied.";
  if (code === "EISDIR") return "it is a directory.";
  if (code === "ENOTDIR") return "a file is in the way where a directory should be.";
  return error instanceof Error ? error.message : String(error);
}
