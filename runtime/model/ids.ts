// The ids a request can name (tenants, aggregates, instances): 1 to 200 of the characters a URL path
// segment carries unencoded (RFC 3986 `pchar` without `%` and `/`), and not `.` or `..`.

export const ID_PATTERN = /^[A-Za-z0-9._~:@!$'()*+,;=-]{1,200}$/;

export function isValidId(value: string): boolean {
  return ID_PATTERN.test(value) && value !== "." && value !== "..";
}
